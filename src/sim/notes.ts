/**
 * Notes on results that look wrong but are not, written into summary.json and
 * printed by the CLI where the numbers appear.
 */
import type { SimInput, SimOutput } from './types.js';

/**
 * Throughput samples above their port's line rate. A sample is the bytes that
 * finished transmission in the interval ending at its time stamp, times 8 over
 * the interval. Two things can lift it above the line rate: serialization
 * times rounded to the profile's resolution (network.transport.
 * txTimeQuantization; e.g. roundHalfUp makes a 1054 B packet take 84 ns at
 * 100 Gbps instead of 84.32 ns, so back-to-back packets run 0.4 % fast), and a
 * packet that started in one interval and finished in the next counting wholly
 * in the later one.
 */
export function throughputNotes(input: SimInput, output: SimOutput): string[] {
  if (output.throughput.length === 0) return [];
  const portRate: number[][] = input.topology.nodes.map(() => []);
  for (const l of input.topology.links) {
    portRate[l.a]!.push(l.rateBps);
    portRate[l.b]!.push(l.rateBps);
  }
  let worst = 1;
  let where = '';
  for (const s of output.throughput) {
    const rate = portRate[s.node]?.[s.port];
    if (rate === undefined) continue;
    for (const v of s.v) {
      if (v / rate > worst + 1e-9) {
        worst = v / rate;
        where = `node ${s.node} port ${s.port}`;
      }
    }
  }
  if (where === '') return [];
  const q = input.net.transport.txTimeQuantization;
  return [
    `throughput.csv has samples up to ${((worst - 1) * 100).toFixed(2)} % above line rate (highest at ${where}): ` +
      `serialization times are quantized (network.transport.txTimeQuantization: ${q}), so back-to-back packets can ` +
      'run slightly faster than the nominal rate, and a packet that finishes in an interval counts wholly in it',
  ];
}
