/**
 * `ccsim report --svg DIR / --png DIR`: each chart of the report as a figure
 * file for a paper. SVG is rendered on the server side by Apache ECharts
 * (`renderer: 'svg', ssr: true`) from the same option the HTML report draws;
 * PNG rasterizes that SVG with resvg (`@resvg/resvg-js`, an optional
 * dependency: without it `--png` is a clear error, `--svg` still works).
 * Charts without data (`Chart.empty`) have no file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as echarts from 'echarts';
import { UsageError, errorMessage } from '../engine/errors.js';
import { writeFileAtomic } from '../experiment/results/points.js';
import { reportReplaceRefusal, sealHtml } from '../experiment/results/ownership.js';
import { loadResults } from '../experiment/results/results.js';
import { HEIGHT, WIDTH, type Chart, type Option } from './charts.js';
import { standardCharts } from './html.js';

/** Options only the browser uses (zoom slider, toolbox buttons) are left out of a figure file. */
function figureOption(option: Option): Option {
  const { dataZoom: _z, toolbox: _t, ...rest } = option;
  void _z;
  void _t;
  const grid = { ...(rest['grid'] as Option | undefined) };
  if (_z !== undefined && typeof grid['bottom'] === 'number') grid['bottom'] = (grid['bottom'] as number) - 20;
  return { ...rest, grid };
}

/** Relative advance widths (em) of a wide sans-serif face (DejaVu Sans, the usual substitute), for text layout without a canvas. */
function charEm(c: string): number {
  if (/[il.,:;'|!]/.test(c)) return 0.32;
  if (/[()[\]jft ]/.test(c)) return 0.4;
  if (/[mwMW]/.test(c)) return 0.95;
  if (/[A-Z]/.test(c)) return 0.72;
  if (/[=+<>~]/.test(c)) return 0.84;
  if (/[0-9]/.test(c)) return 0.64;
  return 0.62;
}

let measuring = false;

/**
 * Server-side ECharts has no canvas to measure text, and its fallback
 * underestimates widths, so legend entries overlap in the figure files; this
 * estimate errs wide for the sans-serif faces a viewer substitutes.
 */
function installTextMeasure(): void {
  if (measuring) return;
  measuring = true;
  echarts.setPlatformAPI({
    measureText(text: string, font?: string) {
      const size = Number(/(\d+(?:\.\d+)?)px/.exec(font ?? '')?.[1] ?? 12);
      let em = 0;
      for (const c of text) em += charEm(c);
      return { width: em * size };
    },
  });
}

/** The chart as a standalone SVG document. */
export function renderSvg(option: Option, width = WIDTH, height = HEIGHT): string {
  installTextMeasure();
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, backgroundColor: '#fff', ...figureOption(option) });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

interface Resvg {
  new (svg: string, opts: Record<string, unknown>): { render(): { asPng(): Uint8Array } };
}

/** The resvg rasterizer, or a UsageError saying how to install it. */
async function loadResvg(): Promise<Resvg> {
  const name = '@resvg/resvg-js';
  try {
    const mod = (await import(name)) as { Resvg?: Resvg; default?: { Resvg?: Resvg } };
    const R = mod.Resvg ?? mod.default?.Resvg;
    if (R !== undefined) return R;
  } catch {
    // reported below
  }
  throw new UsageError(`--png needs the optional dependency ${name} (npm install ${name}); --svg works without it`);
}

export interface FigureFiles {
  dir: string;
  files: string[];
  /** charts without data, by id (no file) */
  skipped: string[];
}

/** Writes each chart of the report of a run or sweep folder as `<id>.svg` or `<id>.png` into `out`. */
export async function writeFigures(dir: string, out: string, format: 'svg' | 'png', scale = 2): Promise<FigureFiles> {
  const charts: Chart[] = standardCharts(loadResults(dir));
  const Resvg = format === 'png' ? await loadResvg() : undefined;
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot write figures to ${out}: ${code === 'EEXIST' || code === 'ENOTDIR' ? 'it (or a folder above it) exists and is not a folder' : errorMessage(e)}`);
  }
  const files: string[] = [];
  const skipped: string[] = [];
  for (const c of charts) {
    if (c.option === undefined) {
      skipped.push(c.id);
      continue;
    }
    const svg = renderSvg(c.option, c.width ?? WIDTH, c.height ?? HEIGHT);
    const file = join(out, `${c.id}.${format}`);
    // ownership (experiment/results/ownership.ts): an SVG ccsim wrote ends with a seal comment, and only such a file is replaced
    const refusal = Resvg === undefined ? reportReplaceRefusal(file) : undefined;
    if (refusal !== undefined) throw new UsageError(`cannot write the figure: ${refusal}`);
    if (Resvg === undefined) writeFileAtomic(file, sealHtml(svg));
    else writeFileSync(file, Buffer.from(new Resvg(svg, { fitTo: { mode: 'zoom', value: scale }, background: '#ffffff', font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' } }).render().asPng()));
    files.push(file);
  }
  return { dir: out, files, skipped };
}
