/**
 * Plain-text rendering of figure tables for the terminal (`ccsim sweep`,
 * `ccsim reproduce`).
 */
import type { Cell, FigureTable } from '../experiment/results/analysis.js';

export function formatCell(c: Cell): string {
  if (c === null) return '-';
  if (typeof c === 'string') return c;
  if (!Number.isFinite(c)) return String(c);
  if (Number.isInteger(c)) return String(c);
  const a = Math.abs(c);
  return a >= 1000 ? c.toFixed(0) : a >= 100 ? c.toFixed(1) : a >= 1 ? c.toFixed(3) : c.toPrecision(3);
}

/** A table as aligned text lines: title, header, rows, notes. */
export function formatTable(t: FigureTable): string[] {
  const cells = t.rows.map((r) => r.map(formatCell));
  const widths = t.columns.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r
      .map((s, i) => (i === 0 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [t.title, line(t.columns), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of cells) out.push(line(r));
  for (const n of t.notes ?? []) out.push(`note: ${n}`);
  return out;
}
