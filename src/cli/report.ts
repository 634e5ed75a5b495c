/** `ccsim report`: the HTML report, and with --svg / --png each chart as a figure file. */
import { writeReport } from '../report/html.js';
import { out } from './format.js';
import '../../experiments/index.js';

export async function reportCommand(dir: string, o: { out?: string; svg?: string; png?: string }): Promise<void> {
  const r = writeReport(dir, o.out);
  out(`report: ${r.file} (${r.charts} charts, ${r.set.runs.length} run${r.set.runs.length === 1 ? '' : 's'})`);
  for (const format of ['svg', 'png'] as const) {
    const target = o[format];
    if (target === undefined) continue;
    const { writeFigures } = await import('../report/figures.js');
    const f = await writeFigures(dir, target, format);
    out(`figures: ${f.files.length} ${format.toUpperCase()} files in ${f.dir}${f.skipped.length > 0 ? ` (no data, no file: ${f.skipped.join(', ')})` : ''}`);
  }
}
