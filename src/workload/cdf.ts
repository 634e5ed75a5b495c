/**
 * Empirical flow-size distributions: parsing, piecewise-linear sampling and
 * the registry of distributions shipped in `data/workloads/`.
 *
 * A CDF is a list of points (size_bytes, P(size <= size_bytes)). Between
 * consecutive points the distribution is uniform (the CDF is linear), which is
 * how the HPCC, OSCAR and PowerTCP generators sample (docs/network-model.md §12.1).
 * Repeated sizes with a rising cdf are point masses; repeated cdfs with a
 * rising size are gaps with no probability.
 */
import { existsSync, statSync } from 'node:fs';
import { readTextFileCapped } from '../engine/io.js';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { packageRoot } from './package-root.js';
import type { Rng } from '../engine/rng.js';

export interface Cdf {
  name: string;
  /** point sizes in bytes, non-decreasing */
  sizes: Float64Array;
  /** cumulative probabilities, non-decreasing, probs[0] = 0, last = 1 exactly */
  probs: Float64Array;
  /** mean of the piecewise-linear distribution: sum (s[i-1]+s[i])/2 * (c[i]-c[i-1]) */
  meanBytes: number;
  /** largest size (last point) */
  maxBytes: number;
}

/** The largest flow size a CDF may give: 1 TiB, the bound of a spec's own flow sizes (engine/spec-fields.ts sizeField). */
export const MAX_CDF_BYTES = 2 ** 40;

/** Tolerance on the final cdf value (1, or 100 for percent files). */
const END_TOLERANCE = 1e-9;

/**
 * Parses a CDF file: `size cdf` per line (space, tab or comma separated);
 * blank lines and lines starting with `#` are skipped. A cdf column that ends
 * at 100 is taken as percent and divided by 100.
 * @param name used in error messages (file name or workload name)
 */
export function parseCdf(text: string, name: string): Cdf {
  const where = (line: number): string => `workload "${name}" line ${line}`;
  const sizes: number[] = [];
  const probs: number[] = [];
  const lineNos: number[] = [];
  const lines = text.split(/\r?\n|\r/);
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k]!.trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const fields = raw.split(/[\s,]+/);
    if (fields.length !== 2) {
      throw new Error(`${where(k + 1)}: expected "size_bytes cdf", got "${raw}"`);
    }
    const s = Number(fields[0]);
    const c = Number(fields[1]);
    if (!Number.isFinite(s) || s < 0) {
      throw new Error(`${where(k + 1)}: size "${fields[0]}" is not a non-negative number`);
    }
    if (s > MAX_CDF_BYTES) {
      throw new Error(`${where(k + 1)}: size "${fields[0]}" is above the largest flow size, 1 TiB (${MAX_CDF_BYTES} bytes); sizes are in bytes`);
    }
    if (!Number.isFinite(c) || c < 0) {
      throw new Error(`${where(k + 1)}: cdf "${fields[1]}" is not a non-negative number`);
    }
    const n = sizes.length;
    if (n > 0 && s < sizes[n - 1]!) {
      throw new Error(`${where(k + 1)}: sizes must not decrease (${s} after ${sizes[n - 1]})`);
    }
    if (n > 0 && c < probs[n - 1]!) {
      throw new Error(`${where(k + 1)}: cdf must not decrease (${c} after ${probs[n - 1]})`);
    }
    sizes.push(s);
    probs.push(c);
    lineNos.push(k + 1);
  }
  const n = sizes.length;
  if (n < 2) {
    throw new Error(`workload "${name}": needs at least 2 points, found ${n}`);
  }
  const last = probs[n - 1]!;
  let scale: number;
  if (Math.abs(last - 1) <= END_TOLERANCE) scale = 1;
  else if (Math.abs(last - 100) <= 100 * END_TOLERANCE) scale = 100;
  else {
    throw new Error(
      `${where(lineNos[n - 1]!)}: last cdf is ${last}; it must be 1 (or 100 for a percent column)`,
    );
  }
  if (probs[0] !== 0) {
    throw new Error(`${where(lineNos[0]!)}: first cdf is ${probs[0]}; it must be 0`);
  }
  const sz = new Float64Array(sizes);
  const pr = new Float64Array(n);
  for (let i = 0; i < n; i++) pr[i] = probs[i]! / scale;
  pr[n - 1] = 1; // exactly, so the sampler's search always ends
  let mean = 0;
  for (let i = 1; i < n; i++) mean += ((sz[i - 1]! + sz[i]!) / 2) * (pr[i]! - pr[i - 1]!);
  return { name, sizes: sz, probs: pr, meanBytes: mean, maxBytes: sz[n - 1]! };
}

/**
 * The size at cumulative probability u in [0, 1] (inverse CDF with linear
 * interpolation, not rounded). Finds the first point with cdf >= u and
 * interpolates from the point before it; point masses and gaps fall out of
 * that rule. Allocation-free binary search.
 */
export function cdfQuantile(cdf: Cdf, u: number): number {
  const probs = cdf.probs;
  const sizes = cdf.sizes;
  let lo = 0;
  let hi = probs.length - 1;
  if (!(u > 0)) return sizes[0]!;
  if (u >= 1) return sizes[hi]!;
  // invariant: probs[hi] >= u; find the smallest such index
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (probs[mid]! >= u) hi = mid;
    else lo = mid + 1;
  }
  // hi >= 1 because probs[0] = 0 < u; probs[hi-1] < u <= probs[hi]
  const c0 = probs[hi - 1]!;
  const s0 = sizes[hi - 1]!;
  const s1 = sizes[hi]!;
  const x = s0 + ((s1 - s0) * (u - c0)) / (probs[hi]! - c0);
  return x > s1 ? s1 : x;
}

/**
 * One flow size in bytes: inverse transform of u = rng.next() with linear
 * interpolation, floored to an integer; a result <= 0 becomes 1 (as HPCC's
 * traffic_gen.py does).
 */
export function sampleCdf(cdf: Cdf, rng: Rng): number {
  const v = Math.floor(cdfQuantile(cdf, rng.next()));
  return v > 0 ? v : 1;
}

/** F(bytes) of the piecewise-linear distribution (right-continuous at point masses). */
export function cdfAt(cdf: Cdf, bytes: number): number {
  const sizes = cdf.sizes;
  const probs = cdf.probs;
  const n = sizes.length;
  if (bytes < sizes[0]!) return 0;
  if (bytes >= sizes[n - 1]!) return 1;
  // largest i with sizes[i] <= bytes
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sizes[mid]! <= bytes) lo = mid;
    else hi = mid - 1;
  }
  const s0 = sizes[lo]!;
  const s1 = sizes[lo + 1]!; // > bytes >= s0
  const c0 = probs[lo]!;
  return c0 + ((probs[lo + 1]! - c0) * (bytes - s0)) / (s1 - s0);
}

// ---------------------------------------------------------------------------
// Built-in distributions

interface BuiltinWorkload {
  file: string;
  description: string;
}

const BUILTINS: Readonly<Record<string, BuiltinWorkload>> = Object.freeze({
  websearch: {
    file: 'websearch_hpcc.txt',
    description: 'Web search (DCTCP paper, Alizadeh et al. 2010), 12-point table from the HPCC generator',
  },
  'websearch-powertcp': {
    file: 'websearch_powertcp.txt',
    description: 'Web search (DCTCP paper) as shipped with the PowerTCP artifact; no flow below 2 KB',
  },
  'websearch-pias': {
    file: 'websearch_pfabric_pias.txt',
    description: 'Web search (DCTCP paper) in the ns-2 pFabric/PIAS packet table, x1460 B',
  },
  'websearch-homa': {
    file: 'websearch_homa_dctcp.txt',
    description: 'Web search (DCTCP paper), Homa 400-point table x1460 B; heavier tail than the others',
  },
  cachefollower: {
    file: 'fb_cachefollower_homa.txt',
    description: 'Facebook CacheFollower intra-cluster (Roy et al. 2015), Homa/OSCAR table, max 3.8 MB',
  },
  'cache-mqecn': {
    file: 'fb_cache_mqecn.txt',
    description: 'Facebook cache traffic, coarse MQ-ECN ns-2 table x1460 B, max 48.7 MB',
  },
  hadoop: {
    file: 'fb_hadoop_hpcc.txt',
    description: 'Facebook Hadoop (Roy et al. 2015), the HPCC generator\'s FB_Hadoop table',
  },
  'hadoop-homa': {
    file: 'fb_hadoop_homa.txt',
    description: 'Facebook Hadoop, all traffic (Roy et al. 2015), Homa 461-point table',
  },
  'hadoop-mqecn': {
    file: 'fb_hadoop_mqecn.txt',
    description: 'Hadoop table from the MQ-ECN ns-2 scripts x1460 B; far heavier, max 487 MB',
  },
  'hadoop-opera': {
    file: 'fb_hadoop_interrack_opera.txt',
    description: 'Facebook Hadoop inter-rack flows (Roy et al. 2015), opera-sim digitization',
  },
  webserver: {
    file: 'fb_webserver_homa.txt',
    description: 'Facebook WebServer intra-cluster (Roy et al. 2015), Homa table, max 1 MB',
  },
  keyvalue: {
    file: 'fb_keyvalue_sampled_homa.txt',
    description: 'Facebook memcached key-value sizes (Atikoglu et al. 2012), Homa sampled table, cut at 100 KB',
  },
  alistorage: {
    file: 'alistorage2019_hpcc.txt',
    description: 'Alibaba distributed storage 2019, from the HPCC generator',
  },
  googlerpc: {
    file: 'googlerpc2008_hpcc.txt',
    description: 'Google all-RPC sizes before 2008 (Homa W3), from the HPCC generator',
  },
  datamining: {
    file: 'datamining_vl2_pfabric_pias.txt',
    description: 'Data mining (VL2, Greenberg et al. 2009), pFabric/PIAS ns-2 packet table x1460 B',
  },
  'datamining-opera': {
    file: 'datamining_vl2_opera.txt',
    description: 'Data mining (VL2, Greenberg et al. 2009), opera-sim digitization in bytes',
  },
});

/** Names of the built-in distributions, in registry order. */
export function workloadNames(): string[] {
  return Object.keys(BUILTINS);
}

/** The package's data/workloads (./package-root.ts: the same from the TypeScript output and the CLI bundle). */
function findDefaultDataDir(): string {
  return join(packageRoot(), 'data', 'workloads');
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Directory holding the built-in workload files. CCSIM_DATA_DIR, if set,
 * overrides it: either the `data` directory (its `workloads/` subfolder is
 * used) or the folder of .txt files itself.
 */
export const DATA_DIR: string = resolveDataDir(process.env['CCSIM_DATA_DIR']);

function resolveDataDir(env: string | undefined): string {
  if (env === undefined || env === '') return findDefaultDataDir();
  const sub = join(env, 'workloads');
  return isDir(sub) ? sub : resolve(env);
}

/** The data directory to use now (re-reads CCSIM_DATA_DIR so it can be set after import). */
function currentDataDir(): string {
  const env = process.env['CCSIM_DATA_DIR'];
  return env === undefined || env === '' ? DATA_DIR : resolveDataDir(env);
}

/** Built-in distributions with their statistics (parses every file). */
export function listWorkloads(): { name: string; file: string; meanBytes: number; maxBytes: number; description: string }[] {
  const dir = currentDataDir();
  return Object.entries(BUILTINS).map(([name, w]) => {
    const cdf = loadFile(join(dir, w.file), name);
    return { name, file: w.file, meanBytes: cdf.meanBytes, maxBytes: cdf.maxBytes, description: w.description };
  });
}

function loadFile(path: string, name: string, maxBytes?: number): Cdf {
  let text: string;
  try {
    text = readTextFileCapped(path, 'workload file', maxBytes);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(msg.startsWith('workload file') ? msg : `cannot read workload "${name}" from ${path}: ${msg}`);
  }
  return parseCdf(text, name);
}

/**
 * A built-in distribution by name (see listWorkloads), or a CDF file by path
 * (relative paths resolve against the working directory). A bare file name of
 * a shipped file (e.g. "websearch_hpcc.txt") also works.
 */
export function loadCdf(nameOrPath: string, maxBytes?: number): Cdf {
  const dir = currentDataDir();
  const builtin = Object.prototype.hasOwnProperty.call(BUILTINS, nameOrPath) ? BUILTINS[nameOrPath] : undefined;
  if (builtin !== undefined) return loadFile(join(dir, builtin.file), nameOrPath);
  if (nameOrPath !== '' && existsSync(nameOrPath) && !isDir(nameOrPath)) return loadFile(nameOrPath, nameOrPath, maxBytes);
  if (nameOrPath !== '' && !isAbsolute(nameOrPath) && basename(nameOrPath) === nameOrPath) {
    for (const cand of [nameOrPath, `${nameOrPath}.txt`]) {
      const p = join(dir, cand);
      if (existsSync(p) && !isDir(p)) return loadFile(p, nameOrPath);
    }
  }
  throw new Error(
    `workload file not found: "${nameOrPath}" (not a built-in name: ${workloadNames().join(', ')})`,
  );
}
