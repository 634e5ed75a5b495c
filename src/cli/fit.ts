/**
 * Tables and lines that fit a terminal of TERMINAL_COLUMNS (120) columns:
 * `reproduce` and `claims` print every claim, with long ids, measured values
 * and causes; the terminal gets them shortened (an ellipsis where text was
 * cut) and the full text stays in the report and its claims.csv.
 */
import type { FigureTable } from '../experiment/results/analysis.js';
import { formatCell } from '../report/text.js';

export const TERMINAL_COLUMNS = 120;

/** `s` cut to `w` characters, an ellipsis at the cut (`middle`: keep both ends, for ids whose tail tells them apart). */
export function shorten(s: string, w: number, middle = false): string {
  if (s.length <= w) return s;
  if (w <= 1) return s.slice(0, w);
  if (!middle) return `${s.slice(0, w - 1)}…`;
  const head = Math.ceil((w - 1) / 2);
  return `${s.slice(0, head)}…${s.slice(s.length - (w - 1 - head))}`;
}

/** Words of `text` wrapped at `width`, continuation lines indented by `indent`. */
export function wrap(text: string, width = TERMINAL_COLUMNS, indent = '    '): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (next.length > width && line !== '') {
      out.push(line);
      line = `${indent}${word}`;
    } else line = next;
  }
  if (line !== '') out.push(line);
  return out;
}

/**
 * The table's lines at most `width` wide: columns are shortened in `shrink`
 * order (column index, the narrowest it may get, whether to cut in the
 * middle) until the table fits; the first column is left-aligned, the
 * others right-aligned, as report/text.ts formatTable. `after[i]`, when
 * given, is a line printed (shortened to the width) under row i.
 */
export function fitTable(
  t: FigureTable,
  shrink: readonly { col: number; min: number; middle?: boolean }[],
  width = TERMINAL_COLUMNS,
  after: readonly (string | undefined)[] = [],
): string[] {
  const cells = t.rows.map((r) => r.map(formatCell));
  const widths = t.columns.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const total = (): number => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  for (const s of shrink) {
    const over = total() - width;
    if (over <= 0) break;
    widths[s.col] = Math.max(s.min, t.columns[s.col]!.length, widths[s.col]! - over);
  }
  const middle = new Set(shrink.filter((s) => s.middle === true).map((s) => s.col));
  const line = (r: readonly string[], align = true): string =>
    r
      .map((s, i) => {
        const v = shorten(s, widths[i]!, middle.has(i));
        return i === 0 || !align ? v.padEnd(widths[i]!) : v.padStart(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  const out = [...wrap(t.title, width, ''), line(t.columns), line(widths.map((w) => '-'.repeat(w)))];
  cells.forEach((r, i) => {
    out.push(line(r));
    const a = after[i];
    if (a !== undefined) out.push(shorten(a, width));
  });
  for (const n of t.notes ?? []) out.push(...wrap(`note: ${n}`, width));
  return out;
}
