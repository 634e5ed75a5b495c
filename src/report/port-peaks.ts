/**
 * The peak queue of every port of the fabric (counters_ports: each egress
 * port's largest queue over the run), so a report never shows only the few
 * ports `metrics.queues` sampled while dozens of others also filled up
 * (issue 44: a run whose report showed 4 ports while 31 of 192 peaked above
 * 100 KB). Two views: per port role (`leaf → host`, `spine → leaf`, ...) the
 * ports above thresholds and the hottest ports by name, for every run; and
 * for a single run a heat map of every switch port (rows: switches, columns:
 * port numbers), drawn as a table so it needs no chart type beyond the
 * report's runtime.
 */
import type { Cell, FigureTable } from '../experiment/results/analysis.js';
import { readTable, type RunData } from '../experiment/results/results.js';

/** "Above" thresholds of the role table (bytes). */
const HOT = 100_000;
const WARM = 10_000;
/** Hottest ports named per role and run. */
const NAMED = 3;
/** Above this many switches or port columns, no heat map (the role table stays). */
const MAX_ROWS = 160;
const MAX_COLS = 64;

interface PortPeak {
  node: number;
  port: number;
  peer: number;
  peak: number;
}

interface Fabric {
  ports: PortPeak[];
  name: Map<number, string>;
  layer: Map<number, string>;
}

function fabricOf(run: RunData): Fabric | undefined {
  const rows = readTable(run.dir, 'counters_ports');
  const nodes = readTable(run.dir, 'counters_nodes');
  if (rows === undefined || nodes === undefined || rows.length === 0 || !('max_queue_bytes' in rows[0]!)) return undefined;
  const name = new Map<number, string>();
  const layer = new Map<number, string>();
  for (const n of nodes) {
    name.set(Number(n['node']), String(n['name']));
    layer.set(Number(n['node']), String(n['layer']));
  }
  const ports = rows.map((r) => ({ node: Number(r['node']), port: Number(r['port']), peer: Number(r['peer']), peak: Number(r['max_queue_bytes']) }));
  return { ports, name, layer };
}

const kb = (b: number): number => Math.round(b / 100) / 10;

/** `leaf → host`: the role of a port by the layers it joins. */
function roleOf(f: Fabric, p: PortPeak): string {
  return `${f.layer.get(p.node) ?? '?'} → ${f.layer.get(p.peer) ?? '?'}`;
}

function portName(f: Fabric, p: PortPeak): string {
  return `${f.name.get(p.node) ?? p.node}:${p.port}→${f.name.get(p.peer) ?? p.peer}`;
}

/** Per run and port role: ports, how many peaked above 10 KB / 100 KB, the largest peak, the hottest ports by name. */
export function portPeakTable(runs: readonly RunData[], names: readonly string[]): FigureTable | undefined {
  const rows: Cell[][] = [];
  let total = 0;
  let hot = 0;
  runs.forEach((r, i) => {
    const f = fabricOf(r);
    if (f === undefined) return;
    const roles = new Map<string, PortPeak[]>();
    for (const p of f.ports) {
      const role = roleOf(f, p);
      let list = roles.get(role);
      if (list === undefined) roles.set(role, (list = []));
      list.push(p);
    }
    for (const [role, list] of [...roles.entries()].sort((a, b) => Math.max(...b[1].map((p) => p.peak)) - Math.max(...a[1].map((p) => p.peak)))) {
      const sorted = [...list].sort((a, b) => b.peak - a.peak || a.node - b.node || a.port - b.port);
      const named = sorted.filter((p) => p.peak > 0).slice(0, NAMED).map((p) => `${portName(f, p)} ${kb(p.peak)} KB`);
      rows.push([names[i]!, role, list.length, list.filter((p) => p.peak > WARM).length, list.filter((p) => p.peak > HOT).length, kb(sorted[0]!.peak), named.join(', ')]);
    }
    total += f.ports.length;
    hot += f.ports.filter((p) => p.peak > HOT).length;
  });
  if (rows.length === 0) return undefined;
  return {
    title: 'Peak queue per port role, whole fabric',
    columns: ['run', 'port role', 'ports', '> 10 KB', '> 100 KB', 'max peak (KB)', 'hottest ports (node:port→peer, peak)'],
    rows,
    notes: [
      `${hot} of ${total} ports${runs.length > 1 ? ' (over all runs)' : ''} peaked above 100 KB; each port's largest egress queue over the run (counters_ports.csv max_queue_bytes), ` +
        'so every port counts, not only those metrics.queues sampled over time',
    ],
  };
}

/** A heat-map cell's background: white (empty) to dark red (the run's largest peak), on a square-root scale. */
function shade(peak: number, max: number): string {
  if (peak <= 0 || max <= 0) return '#ffffff';
  const x = Math.sqrt(peak / max);
  const lerp = (a: number, b: number): number => Math.round(a + (b - a) * x);
  return `rgb(${lerp(255, 150)},${lerp(240, 20)},${lerp(225, 10)})`;
}

function escText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The heat map of one run's switch ports as HTML (rows: switches by layer, columns: port numbers, cells: peak KB), or undefined. */
export function portPeakHeatMap(run: RunData | undefined, label?: string): string | undefined {
  const f = run === undefined ? undefined : fabricOf(run);
  if (f === undefined) return undefined;
  const sw = f.ports.filter((p) => f.layer.get(p.node) !== 'host');
  const nodes = [...new Set(sw.map((p) => p.node))].sort((a, b) => (f.layer.get(a) ?? '').localeCompare(f.layer.get(b) ?? '') || a - b);
  const cols = Math.max(0, ...sw.map((p) => p.port + 1));
  if (nodes.length === 0 || nodes.length > MAX_ROWS || cols > MAX_COLS) return undefined;
  const max = Math.max(...sw.map((p) => p.peak));
  const at = new Map(sw.map((p) => [`${p.node}:${p.port}`, p]));
  const head = `<tr><th>switch</th>${Array.from({ length: cols }, (_, i) => `<th>${i}</th>`).join('')}</tr>`;
  const body = nodes
    .map((n) => {
      const cells = Array.from({ length: cols }, (_, i) => {
        const p = at.get(`${n}:${i}`);
        if (p === undefined) return '<td class="none"></td>';
        const dark = max > 0 && Math.sqrt(p.peak / max) > 0.6;
        return `<td class="num" style="background:${shade(p.peak, max)}${dark ? ';color:#fff' : ''}" title="${escText(`${portName(f, p)}: ${kb(p.peak)} KB`)}">${p.peak > 0 ? kb(p.peak) : ''}</td>`;
      }).join('');
      return `<tr><th>${escText(`${f.name.get(n) ?? n} (${f.layer.get(n) ?? '?'})`)}</th>${cells}</tr>`;
    })
    .join('');
  const title = `Peak queue (KB) of every switch port${label !== undefined ? ` (${label})` : ''}`;
  return (
    `<div class="table"><table class="heatmap"><caption>${escText(title)}</caption><thead>${head}</thead><tbody>${body}</tbody></table>` +
    `<p class="note">rows: switches, columns: their port numbers (the peer is in the cell's tooltip and in counters_ports.csv); darker is a larger peak (square-root scale up to ${kb(max)} KB); blank: no queue</p></div>`
  );
}
