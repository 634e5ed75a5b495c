/**
 * Steady-state fast-forward (issue 46; docs/performance.md, "Fast-forward"), per group of flows
 * that never share a link (the whole network when there is one group). Every few round trips (at fixed simulated times) the flows in
 * progress and every queue of a group are sampled; when, over a window of several intervals, no flow
 * started or finished, no port was paused, and every flow's goodput, rate (or window) and every
 * queue stayed within a tolerance of their means, the run skips ahead analytically to a little
 * before the earliest event that would break the steady state (a flow's computed finish minus a
 * margin, the next arrival, the end of the run).
 *
 * How a skip of D ps is made: the network's state is not moved in time at all. Every flow's
 * sequence space moves ahead by the bytes its window goodput delivers in D (whole MTUs): its
 * sender and receiver sequence numbers, every packet of it in flight (data, ACKs, NACKs) and
 * the CC's sequence markers (`CcInstance.shiftSeq`). Queues, PFC state, pacing, timers and
 * every timestamp stay as they were, on the scheduler's clock, which does not jump; instead the
 * rest of the world moves D closer: flows still to start start D earlier on the scheduler's
 * clock, the stop time comes D earlier, and every time the run reports (finish times, the end)
 * is the scheduler's time plus the total skipped. A steady state repeats itself every round
 * trip but for its sequence numbers, so the state after the skip is the state the packet-level
 * run would have reached, within the tolerance.
 *
 * With more than one group of flows that never share a link (./fast-forward-groups.ts), each
 * group has its own window and its own offset: a skip moves only that group's flows, its flows
 * still to start and its finish times, and an arrival or a finish in one group restarts only
 * that group's window.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { FastForwardStats } from '../metrics/types.js';
import type { NetContext } from '../net/context.js';
import { PKT_ACK, PKT_DATA, PKT_NACK } from '../net/packet.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';
import type { Drivers } from './drivers.js';
import type { FlowGroups } from './fast-forward-groups.js';
import type { FastForwardOptions } from './types.js';
export { fastForwardRefusals } from './fast-forward-refusals.js';


/** The stats of a run that skipped nothing yet. */
export function emptyFastForwardStats(): FastForwardStats {
  return { skips: 0, skippedPs: 0, skippedEventsEstimate: 0, skippedBytes: 0, maxGoodputDeviation: 0, spans: [] };
}

/** One sample of the window: time, events so far, and per flow / per port the values compared. */
interface Sample {
  t: number;
  events: number;
  /** packets sent by the group's ports so far, and by every port (with groups only) */
  tx: number;
  allTx: number;
  acked: Float64Array;
  rate: Float64Array;
  cwnd: Float64Array;
  queue: Float64Array;
}

/** samples of a stretch kept to bound its drift (Group.long) */
const LONG = 64;
/** windows a stretch spans before its first skip */
const LONG_MIN = 3;
/** periods of the CC's slowest timer a stretch spans before its first skip */
const TIMER_SPAN = 4;

/** One group's window (sim/fast-forward-groups.ts): the whole network when there is one group. */
class Group {
  /** the flows of the current window, in id order */
  flows: Flow[] = [];
  samples: Sample[] = [];
  /** round trip of the window (the largest base RTT of its flows), ps */
  rttPs = 0;
  /**
   * when the current steady stretch began, as reported (scheduler time + offset; NaN: not
   * steady): consecutive steady windows and the skips between them. A skip is at most as long
   * as the stretch so far, so skips double while the state stays steady and a change slower
   * than one window (a CC's slow timer) shows in a later window before much is skipped.
   */
  stretchPs = NaN;
  /**
   * every sample of the current stretch (the last LONG), acknowledged bytes moved by the skips
   * since: skips freeze the state, so this is a record of simulated time, and a ramp too slow
   * to show inside one window (less than a packet per half window) shows across it.
   */
  long: Sample[] = [];
  /** the first flow (index into `ids`, or id) that may still be in progress */
  low = 0;
  /** next sampling time on the scheduler's clock */
  nextPs: number;

  constructor(
    readonly index: number,
    /** its flows' ids in id order (null: every flow) */
    readonly ids: Int32Array | null,
    /** its ports' gids (null: every port) */
    readonly ports: Int32Array | null,
    firstCheckPs: number,
  ) {
    this.nextPs = firstCheckPs;
  }
}

export class FastForward {
  readonly stats: FastForwardStats = emptyFastForwardStats();
  /** simulated time skipped so far, ps: a reported time is the scheduler's plus this (with groups: the least of their offsets) */
  offsetPs = 0;
  /** next sampling time on the scheduler's clock (re-armed at every check) */
  nextPs: number;
  private readonly groups: Group[];
  /** with more than one group: each group's offset, ps (shared with the transport and its flow starts); null: one group, `offsetPs` */
  private readonly offsets: Float64Array | null = null;
  /** per flow id: the relative goodput error its skips' drift allowance spent so far (steadySkip) */
  private readonly driftUsed = new Map<number, number>();

  constructor(
    private readonly o: FastForwardOptions,
    private readonly sched: Scheduler,
    private readonly ctx: NetContext,
    private readonly transport: Transport,
    /** the closed-loop workloads, or null: their wake-ups are arrivals, and they see reported time */
    private readonly drivers: Drivers | null,
    firstCheckPs: number,
    /** the run's groups (listed flows, no closed-loop workload, run until done), or null: one group */
    fg: FlowGroups | null = null,
    /** the CC's slowest periodic timer, ps (`CcDefinition.fastForwardTimerPs`; 0: none) */
    private readonly timerPs = 0,
  ) {
    this.nextPs = firstCheckPs;
    if (fg === null || fg.count <= 1) {
      this.groups = [new Group(0, null, null, firstCheckPs)];
      return;
    }
    const lens = new Int32Array(fg.count);
    for (let i = 0; i < fg.of.length; i++) lens[fg.of[i]!]!++;
    const ids = Array.from(lens, (l) => new Int32Array(l));
    lens.fill(0);
    for (let i = 0; i < fg.of.length; i++) {
      const g = fg.of[i]!;
      ids[g]![lens[g]!++] = i;
    }
    this.groups = ids.map((l, g) => new Group(g, l, fg.ports[g]!, firstCheckPs));
    const offsets = new Float64Array(fg.count);
    this.offsets = offsets;
    transport.ffGroups = { of: fg.of, offsets, lastFinishPs: -Infinity };
    transport.starts.setGroups(fg.of, offsets);
  }

  /** The run's end as reported, at scheduler time `now`: with groups, the latest finish if later than now on the least offset. */
  reportedEndPs(now: number): number {
    const gs = this.transport.ffGroups;
    return gs === null ? now + this.offsetPs : Math.max(now + this.offsetPs, gs.lastFinishPs);
  }

  /** The flows of `g` in progress now, in id order. */
  private live(g: Group): Flow[] {
    const all = this.transport.flows;
    const ids = g.ids;
    const n = ids === null ? all.length : ids.length;
    const at = (i: number): Flow | null | undefined => all[ids === null ? i : ids[i]!];
    let low = g.low;
    while (low < n && (at(low) === null || at(low)!.finished)) low++;
    g.low = low;
    const out: Flow[] = [];
    for (let i = low; i < n; i++) {
      const f = at(i);
      if (f !== null && f !== undefined && f.started && !f.finished) out.push(f);
    }
    return out;
  }

  private static same(a: Flow[], b: Flow[]): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /**
   * At a sampling time (`nextPs`): samples every group due, and returns how far the run's end
   * on the scheduler's clock comes closer (ps; 0: not now). `endPs` is that end.
   */
  check(endPs: number): number {
    const before = this.offsetPs;
    const trueEnd = endPs + before;
    const now = this.sched.now;
    let next = Infinity;
    for (const g of this.groups) {
      if (g.nextPs <= now) this.checkGroup(g, trueEnd);
      if (g.nextPs < next) next = g.nextPs;
    }
    this.nextPs = next;
    const offs = this.offsets;
    if (offs !== null) {
      let min = Infinity;
      for (let i = 0; i < offs.length; i++) if (offs[i]! < min) min = offs[i]!;
      this.offsetPs = min;
    }
    return this.offsetPs - before;
  }

  private offsetOf(g: Group): number {
    return this.offsets === null ? this.offsetPs : this.offsets[g.index]!;
  }

  private checkGroup(g: Group, trueEnd: number): void {
    const now = this.sched.now;
    const flows = this.live(g);
    if (!FastForward.same(flows, g.flows)) {
      g.flows = flows;
      g.samples = [];
      let rtt = 0;
      for (const f of flows) if (f.baseRttPs > rtt) rtt = f.baseRttPs;
      g.rttPs = rtt;
      g.stretchPs = NaN;
      g.long = [];
    }
    const all = this.ctx.ports;
    const gp = g.ports;
    const np = gp === null ? all.length : gp.length;
    let paused = false;
    for (let i = 0; i < np; i++) if (all[gp === null ? i : gp[i]!]!.pausedMask !== 0) paused = true;
    const interval = Math.max(1, Math.round(this.o.intervalRtts * g.rttPs));
    g.nextPs = now + (flows.length === 0 ? 10 * interval + 1_000_000 : interval);
    if (flows.length === 0 || paused) {
      g.samples = [];
      g.stretchPs = NaN;
      g.long = [];
      return;
    }
    const n = flows.length;
    const s: Sample = { t: now, events: this.sched.eventsProcessed, tx: 0, allTx: 0, acked: new Float64Array(n), rate: new Float64Array(n), cwnd: new Float64Array(n), queue: new Float64Array(np) };
    for (let i = 0; i < n; i++) {
      const f = flows[i]!;
      s.acked[i] = f.sndUna;
      s.rate[i] = f.rateBps;
      s.cwnd[i] = f.cwndBytes;
    }
    for (let i = 0; i < np; i++) {
      const p = all[gp === null ? i : gp[i]!]!;
      s.queue[i] = p.totalBytes;
      s.tx += p.txPackets;
    }
    if (gp !== null) for (let i = 0; i < all.length; i++) s.allTx += all[i]!.txPackets;
    const samples = g.samples;
    samples.push(s);
    const k = this.o.intervals;
    g.long.push(s);
    if (g.long.length > Math.max(LONG, Math.ceil((TIMER_SPAN * this.timerPs) / interval) + 2 * k)) g.long.shift();
    if (samples.length > k + 1) samples.shift();
    if (samples.length < k + 1) return;
    // not steady: the stretch starts again
    if (this.steadySkip(g, trueEnd) < 0) {
      g.stretchPs = NaN;
      g.long = [];
    }
  }

  /** |x - mean| <= tol * |mean| + slack for every x. */
  private static within(xs: ArrayLike<number>, tol: number, slack: number): boolean {
    let sum = 0;
    for (let i = 0; i < xs.length; i++) sum += xs[i]!;
    const mean = sum / xs.length;
    if (!Number.isFinite(mean)) {
      for (let i = 0; i < xs.length; i++) if (xs[i] !== xs[0]) return false;
      return true;
    }
    const lim = tol * Math.abs(mean) + slack;
    for (let i = 0; i < xs.length; i++) if (Math.abs(xs[i]! - mean) > lim) return false;
    return true;
  }

  /**
   * Flow i's goodput drift over `xs` (bytes/ps per ps): twice the curvature of the least-squares
   * parabola through its acknowledged bytes, shrunk toward 0 by three standard errors (0 when
   * within them: acknowledged bytes move in whole packets, which the residuals measure).
   */
  private static curvature(xs: Sample[], i: number): number {
    const n = xs.length;
    if (n < 5) return 0;
    const t0 = xs[0]!.t;
    const T = xs[n - 1]!.t - t0;
    const y0 = xs[0]!.acked[i]!;
    // normal equations in u = (t - t0) / T: [S0 S1 S2; S1 S2 S3; S2 S3 S4] [a b c] = [Y0 Y1 Y2]
    let s1 = 0, s2 = 0, s3 = 0, s4 = 0, y0s = 0, y1s = 0, y2s = 0;
    for (const x of xs) {
      const u = (x.t - t0) / T;
      const y = x.acked[i]! - y0;
      const u2 = u * u;
      s1 += u;
      s2 += u2;
      s3 += u2 * u;
      s4 += u2 * u2;
      y0s += y;
      y1s += u * y;
      y2s += u2 * y;
    }
    const m = [n, s1, s2, s1, s2, s3, s2, s3, s4];
    const det = (q: number[]): number => q[0]! * (q[4]! * q[8]! - q[5]! * q[7]!) - q[1]! * (q[3]! * q[8]! - q[5]! * q[6]!) + q[2]! * (q[3]! * q[7]! - q[4]! * q[6]!);
    const D = det(m);
    if (!(Math.abs(D) > 0)) return 0;
    const col = (c: number, v: number[]): number[] => m.map((x, j) => (j % 3 === c ? v[Math.floor(j / 3)]! : x));
    const rhs = [y0s, y1s, y2s];
    const a = det(col(0, rhs)) / D;
    const b = det(col(1, rhs)) / D;
    const c = det(col(2, rhs)) / D;
    let rss = 0;
    for (const x of xs) {
      const u = (x.t - t0) / T;
      const r = x.acked[i]! - y0 - (a + b * u + c * u * u);
      rss += r * r;
    }
    // the variance of c: sigma^2 times the (3, 3) element of the inverse, (S0 S2 - S1^2) / D
    const se = Math.sqrt((rss / (n - 3)) * ((n * s2 - s1 * s1) / D));
    const slope = (2 * c) / (T * T);
    const lim = (2 * 3 * se) / (T * T);
    return Math.abs(slope) > lim ? slope - Math.sign(slope) * lim : 0;
  }

  /** With a full window: the skip its steady state allows, made (0: steady, but too short to pay; -1: not steady). */
  private steadySkip(g: Group, trueEnd: number): number {
    const o = this.o;
    const samples = g.samples;
    const k = samples.length - 1;
    const first = samples[0]!;
    const last = samples[k]!;
    const span = last.t - first.t;
    const flows = g.flows;
    const tol = o.tolerance;
    const goodput = new Float64Array(flows.length);
    const drift = new Float64Array(flows.length);
    const xs = new Float64Array(k + 1);
    const mid = samples[k >> 1]!;
    let dev = 0;
    let dMax = Infinity;
    for (let i = 0; i < flows.length; i++) {
      const mean = (last.acked[i]! - first.acked[i]!) / span;
      if (!(mean > 0)) return -1;
      goodput[i] = mean;
      // the drift between the window's halves (bytes/ps per ps) bounds the skip
      const g1 = (mid.acked[i]! - first.acked[i]!) / (mid.t - first.t);
      const g2 = (last.acked[i]! - mid.acked[i]!) / (last.t - mid.t);
      // (less what whole packets explain: one MTU at each end of each half)
      const q = (2 * flows[i]!.mtuBytes) / Math.min(mid.t - first.t, last.t - mid.t);
      const diff = Math.abs(g2 - g1) > q ? g2 - g1 - Math.sign(g2 - g1) * q : 0;
      const slope = diff / ((last.t - first.t) / 2);
      drift[i] = slope;
      for (let j = 0; j < k; j++) {
        // goodput moves in whole packets: one MTU per interval of slack on top of the tolerance
        const dt = samples[j + 1]!.t - samples[j]!.t;
        const gj = (samples[j + 1]!.acked[i]! - samples[j]!.acked[i]!) / dt;
        const d = Math.abs(gj - mean) / mean;
        if (Math.abs(gj - mean) > tol * mean + flows[i]!.mtuBytes / dt) return -1;
        if (d > dev) dev = d;
      }
      for (let j = 0; j <= k; j++) xs[j] = samples[j]!.rate[i]!;
      if (!FastForward.within(xs, tol, 0)) return -1;
      for (let j = 0; j <= k; j++) xs[j] = samples[j]!.cwnd[i]!;
      if (!FastForward.within(xs, tol, 0)) return -1;
    }
    for (let p = 0; p < first.queue.length; p++) {
      for (let j = 0; j <= k; j++) xs[j] = samples[j]!.queue[p]!;
      if (!FastForward.within(xs, tol, o.queueSlackBytes)) return -1;
    }
    // across the stretch: the drift a least-squares parabola through its acknowledged bytes
    // shows (twice its curvature), less three standard errors, if steeper than inside the window
    const long = g.long;
    const L = long.length - 1;
    // the goodput carried over a skip is measured from `mid` on: the window's middle, or the
    // stretch's, whose mean has less of the packets' quantisation (one MTU over a longer time)
    let gMid = (first.t + last.t) / 2;
    if (L > k) {
      const lf = long[0]!;
      const ll = long[L]!;
      gMid = (lf.t + ll.t) / 2;
      for (let i = 0; i < flows.length; i++) {
        const sl = FastForward.curvature(long, i);
        if (Math.abs(sl) > Math.abs(drift[i]!)) drift[i] = sl;
        goodput[i] = (ll.acked[i]! - lf.acked[i]!) / (ll.t - lf.t);
      }
    }
    // a skip freezes a drifting flow: afterwards its goodput lags by |drift| x d for the rest of the
    // drift, a relative error of |drift| d / goodput; over its life a flow may spend driftTolerance of it
    const used = this.driftUsed;
    for (let i = 0; i < flows.length; i++) {
      const sl = Math.abs(drift[i]!);
      if (sl === 0) continue;
      const left = o.driftTolerance - (used.get(flows[i]!.id) ?? 0);
      dMax = Math.min(dMax, left > 0 ? (left * goodput[i]!) / sl : 0);
    }
    // the earliest event that breaks the steady state, less a margin
    const now = this.sched.now;
    const rtt = g.rttPs;
    const off = this.offsetOf(g);
    const ext = now + off;
    if (Number.isNaN(g.stretchPs)) g.stretchPs = first.t + off;
    // a drift that allows no skip worth making means the flows are still moving: not steady
    if (!(dMax >= o.minSkipRtts * rtt)) return -1;
    // no skip before the stretch spans LONG_MIN windows and TIMER_SPAN periods of the CC's slowest
    // timer, to show a slow ramp (or one in the timer's steps) across them
    if (L < LONG_MIN * k || long[L]!.t - long[0]!.t < TIMER_SPAN * this.timerPs) return 0;
    let d = Math.min(dMax, ext - g.stretchPs, trueEnd - off - now - rtt);
    const starts = this.transport.starts;
    const wake = this.drivers === null ? Infinity : this.drivers.nextWakePs();
    const next = this.offsets === null ? starts.nextStartPs() : starts.nextStartPsOf(g.index);
    const arrival = Math.min(next, wake) - off;
    if (arrival - now - rtt < d) d = arrival - now - rtt;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i]!;
      const t = (f.sizeBytes - f.sndUna) / goodput[i]! - o.marginRtts * rtt;
      if (t < d) d = t;
      // a closed-loop workload waits for this flow's notifyAtBytes (drivers.ts): the skip ends before it
      if (f.notifyAtBytes !== Infinity) {
        const u = (f.notifyAtBytes - f.rcvExpected) / goodput[i]! - o.marginRtts * rtt;
        if (u < d) d = u;
      }
    }
    // whole sampling intervals: a steady state that repeats within one interval is met by the next
    // arrival at the phase the packet-level run would meet it at
    const interval = Math.max(1, Math.round(o.intervalRtts * rtt));
    d = Math.floor(d / interval) * interval;
    if (!(d >= o.minSkipRtts * rtt)) return 0;
    if (dev > this.stats.maxGoodputDeviation) this.stats.maxGoodputDeviation = dev;
    // the goodput each flow keeps over the skip: its window mean carried along its drift to the skip's middle
    for (let i = 0; i < flows.length; i++) {
      const sl = Math.abs(drift[i]!);
      if (sl !== 0) used.set(flows[i]!.id, (used.get(flows[i]!.id) ?? 0) + (sl * d) / goodput[i]!);
      goodput[i] = goodput[i]! + drift[i]! * (now - gMid + d / 2);
    }
    // the group's share of the window's events: its ports' share of the packets sent (all of them with one group)
    const share = g.ports === null ? 1 : (last.tx - first.tx) / Math.max(1, last.allTx - first.allTx);
    this.apply(g, d, goodput, (share * (last.events - first.events)) / span);
    return d;
  }

  /** Skips `d` ps of group `g`: every flow's sequence space moves by what its goodput delivers in d (module comment). */
  private apply(g: Group, d: number, goodput: Float64Array, eventsPerPs: number): void {
    const flows = g.flows;
    const t = this.transport;
    const shift = new Float64Array(t.flows.length);
    let bytes = 0;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i]!;
      let b = Math.round((goodput[i]! * d) / f.mtuBytes) * f.mtuBytes;
      // never past the flow's last packet (the drift correction may ask a little more than the margin left)
      const room = (Math.floor((f.sizeBytes - f.sndNxt) / f.mtuBytes) - 1) * f.mtuBytes;
      if (b > room) b = room;
      if (b <= 0) continue;
      shift[f.id] = b;
      bytes += b;
      f.sndNxt += b;
      f.sndUna += b;
      f.maxSentSeq += b;
      f.rcvExpected += b;
      if (f.lastNack >= 0) f.lastNack += b;
      f.lastSampledAcked += b;
      f.dataPacketsSent += b / f.mtuBytes;
      if (f.cc.shiftSeq !== undefined) f.cc.shiftSeq(b);
    }
    // every packet of a moved flow in flight, queued, or held by its receiver (a coalesced ACK)
    const pk = this.ctx.pool;
    const used = pk.inUse();
    for (let p = 0; p < used.length; p++) {
      if (used[p] === 0) continue;
      const type = pk.type(p);
      if (type !== PKT_DATA && type !== PKT_ACK && type !== PKT_NACK) continue;
      const id = pk.flow(p);
      if (id < 0 || id >= shift.length || shift[id] === 0) continue;
      pk.setSeq(p, pk.seq(p) + shift[id]!);
    }
    const st = this.stats;
    const offs = this.offsets;
    st.spans.push({ atPs: this.sched.now + this.offsetOf(g), ps: d, flows: flows.length, ...(offs !== null ? { group: g.index } : {}) });
    st.skips++;
    st.skippedPs += d;
    st.skippedBytes += bytes;
    st.skippedEventsEstimate += Math.round(eventsPerPs * d);
    g.samples = [];
    for (const x of g.long) for (let i = 0; i < flows.length; i++) x.acked[i] = x.acked[i]! + shift[flows[i]!.id]!;
    if (offs !== null) {
      // this group's clock only: its flows still to start, and its finishes (transport.ffGroups)
      offs[g.index] = offs[g.index]! + d;
      t.starts.shiftGroup(g.index);
      return;
    }
    this.offsetPs += d;
    t.starts.shift(d);
    t.finishOffsetPs += d;
    if (this.drivers !== null) this.drivers.shift(d);
  }
}
