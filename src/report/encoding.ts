/**
 * How a report tells its series apart: the colour names the CC, the line
 * dash and marker (or, for bars, the shade) name the other swept values, so a
 * 4-CC x 4-load sweep's 16 lines are 4 colours x 4 dashes, and one CC's lines
 * share its colour in every chart. ECharts' own palette repeats after 9
 * series (hpcc and oscar at one load shared a colour). A sweep that does not
 * vary the CC colours by its first varied field instead.
 */
import type { RunData } from '../experiment/results/results.js';
import { ccText } from '../experiment/run/sweep.js';

/** Colour-blind-friendly first (Okabe-Ito), then further distinct hues. */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C564B', '#7F3C8D', '#11A579', '#F2B701', '#E73F74'];
const DASHES: (string | number[])[] = ['solid', 'dashed', 'dotted', [10, 3, 2, 3], [2, 2], [14, 4]];
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'pin', 'roundRect'];
/** bar shades per style index: the CC's colour mixed with this much white */
const SHADES = [0, 0.35, 0.6, 0.8];

export interface SeriesStyle {
  color: string;
  /** the index among the other values (0: solid, full colour) */
  style: number;
  dash: string | number[];
  symbol: string;
}

function textOf(v: unknown): string {
  return ccText(v) ?? (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
}

/** The colour mixed with `w` of white (0..1). */
export function shade(color: string, w: number): string {
  const n = Number.parseInt(color.slice(1), 16);
  const mix = (c: number): number => Math.round(c + (255 - c) * w);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix) as [number, number, number];
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/**
 * A style per run: colour by CC (the `cc` field when swept, else the run's
 * CC when they differ, else the first other varied field), dash and marker by
 * the remaining varied fields but `exclude` (a chart's x axis).
 */
export function seriesStyles(runs: readonly RunData[], fields: readonly string[], exclude?: string): SeriesStyle[] {
  const varied = fields.filter((f) => f !== exclude && new Set(runs.map((r) => textOf(r.vars[f]))).size > 1);
  const ccField = varied.find((f) => f === 'cc');
  const ccs = new Set(runs.map((r) => r.cc));
  const colourOf = (r: RunData): string =>
    ccField !== undefined ? textOf(r.vars[ccField]) : ccs.size > 1 ? r.cc : varied.length > 0 ? textOf(r.vars[varied[0]!]) : '';
  const colourField = ccField ?? (ccs.size > 1 ? undefined : varied[0]);
  const rest = varied.filter((f) => f !== colourField);
  const styleOf = (r: RunData): string => rest.map((f) => textOf(r.vars[f])).join('\u0000');
  const colours: string[] = [];
  const styles: string[] = [];
  return runs.map((r) => {
    const c = colourOf(r);
    const s = styleOf(r);
    if (!colours.includes(c)) colours.push(c);
    if (!styles.includes(s)) styles.push(s);
    const ci = colours.indexOf(c);
    const si = styles.indexOf(s);
    // more colours than the palette: the next round of styles keeps them apart
    const style = si + Math.floor(ci / COLOURS.length) * styles.length;
    return { color: COLOURS[ci % COLOURS.length]!, style, dash: DASHES[style % DASHES.length]!, symbol: SYMBOLS[style % SYMBOLS.length]! };
  });
}

/** ECharts style fields of a line series. */
export function lineStyleOf(s: SeriesStyle): Record<string, unknown> {
  return { color: s.color, symbol: s.symbol, lineStyle: { color: s.color, type: s.dash, width: 2 }, itemStyle: { color: s.color } };
}

/** ECharts style fields of a bar series: the CC's colour, lighter per other value, outlined in the CC's colour. */
export function barStyleOf(s: SeriesStyle): Record<string, unknown> {
  const w = SHADES[s.style % SHADES.length]!;
  return { itemStyle: { color: shade(s.color, w), borderColor: s.color, borderWidth: w > 0 ? 1 : 0 } };
}
