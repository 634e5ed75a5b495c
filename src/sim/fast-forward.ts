/**
 * Steady-state fast-forward (issue 46; docs/performance.md, "Fast-forward"), first step: the
 * whole network is one group. Every few round trips (at fixed simulated times) the flows in
 * progress and every queue are sampled; when, over a window of several intervals, no flow
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
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { FastForwardStats } from '../metrics/types.js';
import type { NetContext } from '../net/context.js';
import { PKT_ACK, PKT_DATA, PKT_NACK } from '../net/packet.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';
import type { Drivers } from './drivers.js';
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
  acked: Float64Array;
  rate: Float64Array;
  cwnd: Float64Array;
  queue: Float64Array;
}

export class FastForward {
  readonly stats: FastForwardStats = emptyFastForwardStats();
  /** simulated time skipped so far, ps: a reported time is the scheduler's plus this */
  offsetPs = 0;
  /** next sampling time on the scheduler's clock (Infinity: no flow in progress yet; re-armed at every check) */
  nextPs: number;
  /** the flows of the current window, in id order */
  private flows: Flow[] = [];
  private samples: Sample[] = [];
  /** round trip of the window (the largest base RTT of its flows), ps */
  private rttPs = 0;
  /**
   * when the current steady stretch began, as reported (scheduler time + offset; NaN: not
   * steady): consecutive steady windows and the skips between them. A skip is at most as long
   * as the stretch so far, so skips double while the state stays steady and a change slower
   * than one window (a CC's slow timer) shows in a later window before much is skipped.
   */
  private stretchPs = NaN;
  /** the first flow id that may still be in progress */
  private low = 0;

  constructor(
    private readonly o: FastForwardOptions,
    private readonly sched: Scheduler,
    private readonly ctx: NetContext,
    private readonly transport: Transport,
    /** the closed-loop workloads, or null: their wake-ups are arrivals, and they see reported time */
    private readonly drivers: Drivers | null,
    firstCheckPs: number,
  ) {
    this.nextPs = firstCheckPs;
  }

  /** The flows in progress now, in id order. */
  private live(): Flow[] {
    const all = this.transport.flows;
    let low = this.low;
    while (low < all.length && (all[low] === null || all[low]!.finished)) low++;
    this.low = low;
    const out: Flow[] = [];
    for (let i = low; i < all.length; i++) {
      const f = all[i];
      if (f !== null && f !== undefined && f.started && !f.finished) out.push(f);
    }
    return out;
  }

  private sameFlows(a: Flow[]): boolean {
    const b = this.flows;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** Starts a new window at the current time (nothing sampled yet counts). */
  private restart(flows: Flow[]): void {
    this.flows = flows;
    this.samples = [];
    let rtt = 0;
    for (const f of flows) if (f.baseRttPs > rtt) rtt = f.baseRttPs;
    this.rttPs = rtt;
  }

  /**
   * At a sampling time (`nextPs`): samples, and returns how far to skip (ps, 0: not now).
   * `endPs` is the run's end on the scheduler's clock.
   */
  check(endPs: number): number {
    const now = this.sched.now;
    const flows = this.live();
    if (!this.sameFlows(flows)) {
      this.restart(flows);
      this.stretchPs = NaN;
    }
    const ports = this.ctx.ports;
    let paused = false;
    for (let i = 0; i < ports.length; i++) if (ports[i]!.pausedMask !== 0) paused = true;
    const interval = Math.max(1, Math.round(this.o.intervalRtts * this.rttPs));
    this.nextPs = now + (flows.length === 0 ? 10 * interval + 1_000_000 : interval);
    if (flows.length === 0 || paused) {
      this.samples = [];
      this.stretchPs = NaN;
      return 0;
    }
    const n = flows.length;
    const s: Sample = { t: now, events: this.sched.eventsProcessed, acked: new Float64Array(n), rate: new Float64Array(n), cwnd: new Float64Array(n), queue: new Float64Array(ports.length) };
    for (let i = 0; i < n; i++) {
      const f = flows[i]!;
      s.acked[i] = f.sndUna;
      s.rate[i] = f.rateBps;
      s.cwnd[i] = f.cwndBytes;
    }
    for (let i = 0; i < ports.length; i++) s.queue[i] = ports[i]!.totalBytes;
    const samples = this.samples;
    samples.push(s);
    const k = this.o.intervals;
    if (samples.length > k + 1) samples.shift();
    if (samples.length < k + 1) return 0;
    const d = this.steadySkip(endPs);
    if (d < 0) {
      // not steady: the stretch starts again
      this.stretchPs = NaN;
      return 0;
    }
    return d;
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

  /** With a full window: the skip its steady state allows (0: steady, but too short to pay; -1: not steady). */
  private steadySkip(endPs: number): number {
    const o = this.o;
    const samples = this.samples;
    const k = samples.length - 1;
    const first = samples[0]!;
    const last = samples[k]!;
    const span = last.t - first.t;
    const flows = this.flows;
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
      if (slope !== 0) dMax = Math.min(dMax, (o.driftTolerance * mean) / Math.abs(slope));
      for (let j = 0; j < k; j++) {
        // goodput moves in whole packets: one MTU per interval of slack on top of the tolerance
        const dt = samples[j + 1]!.t - samples[j]!.t;
        const g = (samples[j + 1]!.acked[i]! - samples[j]!.acked[i]!) / dt;
        const d = Math.abs(g - mean) / mean;
        if (Math.abs(g - mean) > tol * mean + flows[i]!.mtuBytes / dt) return -1;
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
    // the earliest event that breaks the steady state, less a margin
    const now = this.sched.now;
    const rtt = this.rttPs;
    const ext = now + this.offsetPs;
    if (Number.isNaN(this.stretchPs)) this.stretchPs = first.t + this.offsetPs;
    // a drift that allows no skip worth making means the flows are still moving: not steady
    if (!(dMax >= o.minSkipRtts * rtt)) return -1;
    let d = Math.min(dMax, ext - this.stretchPs, endPs - now - rtt);
    const wake = this.drivers === null ? Infinity : this.drivers.nextWakePs();
    const arrival = Math.min(this.transport.starts.nextStartPs(), wake) - this.offsetPs;
    if (arrival - now - rtt < d) d = arrival - now - rtt;
    for (let i = 0; i < flows.length; i++) {
      const f = flows[i]!;
      const t = (f.sizeBytes - f.sndUna) / goodput[i]! - o.marginRtts * rtt;
      if (t < d) d = t;
    }
    d = Math.floor(d);
    if (!(d >= o.minSkipRtts * rtt)) return 0;
    if (dev > this.stats.maxGoodputDeviation) this.stats.maxGoodputDeviation = dev;
    // the goodput each flow keeps over the skip: its window mean carried along its drift to the skip's middle
    for (let i = 0; i < flows.length; i++) goodput[i] = goodput[i]! + drift[i]! * (span / 2 + d / 2);
    this.apply(d, goodput, (last.events - first.events) / span);
    return d;
  }

  /** Skips `d` ps: every flow's sequence space moves by what its goodput delivers in d (module comment). */
  private apply(d: number, goodput: Float64Array, eventsPerPs: number): void {
    const flows = this.flows;
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
    st.spans.push({ atPs: this.sched.now + this.offsetPs, ps: d, flows: flows.length });
    st.skips++;
    st.skippedPs += d;
    st.skippedBytes += bytes;
    st.skippedEventsEstimate += Math.round(eventsPerPs * d);
    this.offsetPs += d;
    t.starts.shift(d);
    t.finishOffsetPs += d;
    if (this.drivers !== null) this.drivers.shift(d);
    this.samples = [];
  }
}
