/**
 * What a run will simulate, before it runs: the data packets that can be sent
 * before it ends, not every byte its flows ask for. A run with `stop.at` (or
 * one capped by `stop.maxTime`) ends with flows unfinished: a 100:1 incast of
 * 1000 GB flows stopped at 200 ms moves what the receiver's link carries in
 * 200 ms, and Poisson arrivals over 1 s stopped at 1 ms move only what the
 * first millisecond's flows can send. The cost estimate (estimate-cost.ts)
 * multiplies these packets by the calibrated events per packet, scaled by the
 * mean path length of the run's traffic (each link a packet and its ACK cross
 * costs events), and adds the timers and samplers (estimate-periodic.ts).
 *
 * Fluid bounds, each from above: a flow sends at most its size, and at most
 * its slower end's line rate times the time it has before the run ends; a
 * host's link sends (receives) at most its rate times the time from its first
 * flow's start to the end, shared among its flows in proportion. Closed-loop
 * workloads (collectives, parameter servers) are counted from their plug-in's
 * byte estimate, bounded by their receivers' links over the run. With up to
 * FABRIC_FLOWS flows, the fabric's links bound them too: each flow spread
 * evenly over its equal-cost shortest paths (ECMP in the fluid limit), each
 * link carrying at most its rate times the time from its first flow's start,
 * shared in proportion (two long flows through one 100 G link in ACC Fig. 4
 * send half of what their hosts could). A link's rate counts as if it were
 * always up (a rotating circuit is not: PowerTCP §5's fabric is overestimated).
 */
import type { SimInput } from '../../sim/types.js';

const PS_PER_SEC = 1e12;
/** flows whose paths are traced for the mean path length (evenly spread over the run's flows) */
const PATH_SAMPLES = 512;
/** up to this many flows sending before the end, the fabric's links bound them (fabricShare) */
const FABRIC_FLOWS = 2048;

/** Bytes a closed-loop workload will send (its plug-in's estimate; resolve.ts keeps it per input). */
export interface ClosedLoopWork {
  flows: number;
  bytes: number;
  receivers: readonly number[] | 'all';
}

export interface RunWork {
  /** listed flows plus the closed-loop workloads' estimated flows */
  flows: number;
  /** data packets of all those flows, were they to finish */
  packets: number;
  /** data packets sent before the run ends (estimated from above) */
  sentPackets: number;
  /** mean links on a path of the sent packets (their ACKs cross them back) */
  meanHops: number;
  /** the run's end (ps): `stop.at`, else `stop.maxTime` */
  endPs: number;
  /** listed flows that start at or after the end (never run) */
  startLate: number;
  /** listed flows that cannot finish before the end even at line rate */
  cannotFinish: number;
}

/** Per host, its link rate (b/s); 0 for a host without a link. */
export function hostRates(input: SimInput): Float64Array {
  const topo = input.topology;
  const rate = new Float64Array(topo.hostCount);
  for (const l of topo.links) {
    if (l.a < topo.hostCount && rate[l.a] === 0) rate[l.a] = l.rateBps;
    if (l.b < topo.hostCount && rate[l.b] === 0) rate[l.b] = l.rateBps;
  }
  return rate;
}

/** Links on a shortest path from `src` to each of `dsts` (breadth-first search; -1 unreachable). */
function hopsFrom(adj: readonly number[][], src: number, dsts: readonly number[]): number[] {
  const dist = new Int32Array(adj.length).fill(-1);
  dist[src] = 0;
  const queue = [src];
  const want = new Set(dsts);
  for (let qi = 0; qi < queue.length && want.size > 0; qi++) {
    const n = queue[qi]!;
    want.delete(n);
    for (const m of adj[n]!) {
      if (dist[m] === -1) {
        dist[m] = dist[n]! + 1;
        queue.push(m);
      }
    }
  }
  return dsts.map((d) => dist[d]!);
}

/** Mean path length in links over (src, dst, weight) samples; 2 (a star) when there are none. */
function meanHopsOf(input: SimInput, pairs: readonly [number, number, number][]): number {
  const topo = input.topology;
  const adj: number[][] = topo.nodes.map(() => []);
  for (const l of topo.links) {
    adj[l.a]?.push(l.b);
    adj[l.b]?.push(l.a);
  }
  const bySrc = new Map<number, [number, number][]>();
  for (const [s, d, w] of pairs) {
    if (s === d || w <= 0) continue;
    const list = bySrc.get(s) ?? [];
    list.push([d, w]);
    bySrc.set(s, list);
  }
  let sum = 0;
  let weight = 0;
  for (const [s, list] of bySrc) {
    const hops = hopsFrom(adj, s, list.map(([d]) => d));
    list.forEach(([, w], i) => {
      if (hops[i]! > 0) {
        sum += hops[i]! * w;
        weight += w;
      }
    });
  }
  return weight > 0 ? sum / weight : 2;
}

/** Breadth-first distances and counts of shortest paths from `src` (hosts are not transit nodes). */
function pathCounts(adj: readonly number[][], hosts: number, src: number): { dist: Int32Array; count: Float64Array } {
  const dist = new Int32Array(adj.length).fill(-1);
  const count = new Float64Array(adj.length);
  dist[src] = 0;
  count[src] = 1;
  const queue = [src];
  for (let qi = 0; qi < queue.length; qi++) {
    const n = queue[qi]!;
    if (n < hosts && n !== src) continue;
    for (const m of adj[n]!) {
      if (dist[m] === -1) {
        dist[m] = dist[n]! + 1;
        queue.push(m);
      }
      if (dist[m] === dist[n]! + 1) count[m] = count[m]! + count[n]!;
    }
  }
  return { dist, count };
}

/**
 * Scales `cap` (bytes per flow) down where the fabric's links cannot carry it
 * before `endPs` (see the file comment): per flow, at each hop distance its
 * share over that level's links, each link at most its rate.
 */
function fabricShare(input: SimInput, cap: Float64Array, endPs: number): void {
  const topo = input.topology;
  const H = topo.hostCount;
  const adj: number[][] = topo.nodes.map(() => []);
  // directed link k: 2*l from a to b, 2*l+1 from b to a
  const linkOf = new Map<number, number>();
  const N = topo.nodes.length;
  topo.links.forEach((l, i) => {
    adj[l.a]!.push(l.b);
    adj[l.b]!.push(l.a);
    linkOf.set(l.a * N + l.b, 2 * i);
    linkOf.set(l.b * N + l.a, 2 * i + 1);
  });
  const from = new Map<number, ReturnType<typeof pathCounts>>();
  const counts = (h: number): ReturnType<typeof pathCounts> => {
    let c = from.get(h);
    if (c === undefined) {
      c = pathCounts(adj, H, h);
      from.set(h, c);
    }
    return c;
  };
  // per flow: its directed links with the fraction of the flow each carries, and the level (hop index)
  const uses: { link: number; frac: number; level: number }[][] = [];
  const demand = new Float64Array(2 * topo.links.length);
  const first = new Float64Array(2 * topo.links.length).fill(Infinity);
  input.flows.forEach((f, i) => {
    const list: { link: number; frac: number; level: number }[] = [];
    uses.push(list);
    if (cap[i]! <= 0 || f.src === f.dst) return;
    const s = counts(f.src);
    const t = counts(f.dst);
    const d = s.dist[f.dst]!;
    if (d <= 0) return;
    const total = s.count[f.dst]!;
    for (let u = 0; u < N; u++) {
      const du = s.dist[u]!;
      if (du < 0 || du >= d || (u < H && u !== f.src) || t.dist[u] !== d - du) continue;
      for (const v of adj[u]!) {
        if (t.dist[v] !== d - du - 1 || (v < H && v !== f.dst)) continue;
        const frac = (s.count[u]! * t.count[v]!) / total;
        const link = linkOf.get(u * N + v)!;
        list.push({ link, frac, level: du });
        demand[link] = demand[link]! + cap[i]! * frac;
        first[link] = Math.min(first[link]!, f.startPs);
      }
    }
  });
  const scale = new Float64Array(demand.length).fill(1);
  topo.links.forEach((l, i) => {
    for (const k of [2 * i, 2 * i + 1]) {
      const most = (l.rateBps * Math.max(0, endPs - first[k]!)) / 8 / PS_PER_SEC;
      if (demand[k]! > most) scale[k] = most / demand[k]!;
    }
  });
  uses.forEach((list, i) => {
    if (list.length === 0) return;
    const level = new Map<number, number>();
    for (const u of list) level.set(u.level, (level.get(u.level) ?? 0) + u.frac * scale[u.link]!);
    let worst = 1;
    for (const v of level.values()) worst = Math.min(worst, v);
    cap[i] = cap[i]! * worst;
  });
}

/** What the run will simulate (see the file comment). `closedLoop`: the closed-loop workloads' estimate, if any. */
export function runWork(input: SimInput, closedLoop?: ClosedLoopWork): RunWork {
  const endPs = input.stopAtPs ?? input.maxTimePs;
  const mtu = input.net.transport.mtuBytes;
  const rate = hostRates(input);
  const H = rate.length;
  const n = input.flows.length;
  const cap = new Float64Array(n);
  const sendFirst = new Float64Array(H).fill(Infinity);
  const recvFirst = new Float64Array(H).fill(Infinity);
  let startLate = 0;
  let cannotFinish = 0;
  let packets = 0;
  input.flows.forEach((f, i) => {
    packets += Math.max(1, Math.ceil(f.bytes / mtu));
    const left = endPs - f.startPs;
    if (left <= 0) {
      startLate++;
      return;
    }
    const r = Math.min(rate[f.src] || Infinity, rate[f.dst] || Infinity);
    const most = Number.isFinite(r) ? (r * left) / 8 / PS_PER_SEC : f.bytes;
    if (most < f.bytes) cannotFinish++;
    cap[i] = Math.min(f.bytes, most);
    sendFirst[f.src] = Math.min(sendFirst[f.src]!, f.startPs);
    recvFirst[f.dst] = Math.min(recvFirst[f.dst]!, f.startPs);
  });
  // a host's link shared among its flows: first the senders', then the receivers'
  const share = (end: (i: number) => number, first: Float64Array): void => {
    const sum = new Float64Array(H);
    for (let i = 0; i < n; i++) sum[end(i)] = sum[end(i)]! + cap[i]!;
    const scale = new Float64Array(H).fill(1);
    for (let h = 0; h < H; h++) {
      if (sum[h]! <= 0 || rate[h]! <= 0) continue;
      const most = (rate[h]! * (endPs - first[h]!)) / 8 / PS_PER_SEC;
      if (most < sum[h]!) scale[h] = most / sum[h]!;
    }
    for (let i = 0; i < n; i++) cap[i] = cap[i]! * scale[end(i)]!;
  };
  share((i) => input.flows[i]!.src, sendFirst);
  share((i) => input.flows[i]!.dst, recvFirst);
  let sending = 0;
  for (let i = 0; i < n; i++) if (cap[i]! > 0) sending++;
  if (sending > 0 && sending <= FABRIC_FLOWS) fabricShare(input, cap, endPs);
  let sent = 0;
  for (let i = 0; i < n; i++) if (cap[i]! > 0) sent += Math.max(1, Math.ceil(cap[i]! / mtu));

  const pairs: [number, number, number][] = [];
  const stride = Math.max(1, Math.floor(n / PATH_SAMPLES));
  for (let i = 0; i < n; i += stride) pairs.push([input.flows[i]!.src, input.flows[i]!.dst, cap[i]!]);

  let flows = n;
  if (closedLoop !== undefined && closedLoop.bytes > 0) {
    const receivers = closedLoop.receivers === 'all' ? Array.from({ length: H }, (_, h) => h) : [...new Set(closedLoop.receivers)];
    let capacity = 0;
    for (const h of receivers) capacity += ((rate[h] ?? 0) * endPs) / 8 / PS_PER_SEC;
    const bytes = capacity > 0 ? Math.min(closedLoop.bytes, capacity) : closedLoop.bytes;
    const cl = Math.ceil(bytes / mtu);
    packets += Math.ceil(closedLoop.bytes / mtu);
    sent += cl;
    flows += closedLoop.flows;
    // half between neighbours in the receivers' order (a ring's steps), half across the list (a
    // parameter server's workers and servers, an all-to-all), weighted by the closed loop's packets
    const k = Math.min(receivers.length, PATH_SAMPLES);
    const half = Math.floor(receivers.length / 2);
    for (let j = 0; j < k; j++) {
      pairs.push([receivers[j]!, receivers[(j + 1) % receivers.length]!, (cl * mtu) / k / 2]);
      pairs.push([receivers[j]!, receivers[(j + half) % receivers.length]!, (cl * mtu) / k / 2]);
    }
  }
  return { flows, packets, sentPackets: sent, meanHops: meanHopsOf(input, pairs), endPs, startLate, cannotFinish };
}
