/**
 * Homa's grant scheduling as a send driver (`sendDriver: homa`, set by the
 * `homa` CC; Montazeri et al., SIGCOMM'18 §3.2-§3.5; parameters and the
 * priority plan in cc/homa.ts; docs/algorithms.md "Homa").
 *
 * Sender (Homa §3.2): a message sends its first `RTTbytes` (whole packets,
 * at most its size) unscheduled at once, at the unscheduled level of its
 * size; every later packet only below the offset the receiver granted, at
 * the scheduled level the last grant named.
 *
 * Receiver (Homa §3.3-§3.5): each host keeps its incoming messages that
 * still need grants in SRPT order (fewest bytes left to receive first, ties
 * to the older flow). On every data packet of such a message the receiver
 * ranks it again and, if it is among the first `overcommitment`, grants up
 * to its received bytes plus `RTTbytes` with the scheduled level of its
 * rank (Homa §3.4: the lowest levels when fewer messages are granted than
 * there are levels). A message that is fully granted leaves the list; the
 * one that then enters the first `overcommitment` gets a grant of its own at
 * once (a message outside them has no packets in flight to carry one).
 *
 * Grants ride on the per-packet ACKs, in the `xack` word (credit beyond the
 * cumulative sequence x 8 + level), at the highest class (`needs.highPriorityAcks`);
 * a grant without a data packet to answer is an ACK of its own. Homa's ACK
 * economy (no per-packet ACKs), RESEND and sender-side SRPT among a host's
 * outgoing messages are not modelled (docs/algorithms.md "Homa").
 *
 * Per packet this costs one comparison walk in a host's list (typically a few
 * messages) and no allocation; the lists grow only when a message arrives.
 */
import type { PacketStore } from '../net/packet.js';
import type { Host } from '../net/host.js';
import { homaPriorityPlan, homaScheduledLevel, homaUnscheduledLevel, type HomaParams, type HomaPriorityPlan } from '../cc/homa.js';
import { controlAck } from './ack-info.js';
import type { Flow } from './flow.js';
import type { StrategyState } from './strategy-state.js';
import type { SendDriver } from './send-driver.js';


/** what the driver needs of the transport to send a grant of its own */
export interface HomaHost {
  readonly pool: PacketStore;
  readonly hosts: readonly Host[];
}

/** receiver: no place in the SRPT list yet (-1), or none needed any more (-2: fully granted) */
const NOT_LISTED = -1;
const DONE = -2;

export class HomaDriver implements SendDriver {
  readonly name = 'homa';
  readonly carriesGrants = true;
  private params: HomaParams | null = null;
  private sizes: ArrayLike<number> = [];
  /** RTTbytes in whole packets (0 until the first flow starts, unless a parameter gives it) */
  private rttBytes = 0;
  private overcommit = 1;
  private scheduledLevels = 1;
  /** the priority plan (made when the first flow starts) */
  plan: HomaPriorityPlan | null = null;
  /** per receiving host: its messages that need grants, SRPT order (made at the host's first) */
  private readonly lists: (Flow[] | undefined)[] = [];

  /** per sending host: flows held back because their next packet's class is paused */
  private readonly blocked: Flow[][];

  constructor(
    private readonly t: HomaHost,
    /** the class grants travel in (the transport's high-priority ACK class) */
    private readonly grantClass: number,
  ) {
    const hosts = t.hosts;
    this.blocked = hosts.map(() => []);
    // a NIC honours PFC by the flow's class; Homa's packets take other classes, so the driver
    // holds a flow whose next packet's class is paused and looks again at each resume
    for (let h = 0; h < hosts.length; h++) hosts[h]!.onResume = () => this.resume(h);
  }

  /** A PFC resume at host h: the flows held back there may send again. */
  private resume(h: number): void {
    const list = this.blocked[h]!;
    if (list.length === 0) return;
    const host = this.t.hosts[h]!;
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      f.strategy!.homaBlocked = false;
      if (!f.finished) host.touch(f);
    }
    list.length = 0;
    host.port.kick();
  }

  /** SendDriver.prepareRun: Homa's driver works with the homa CC only, whose parameters set the plan. */
  prepareRun(cc: { readonly name: string; readonly params: unknown }, messageBytes: ArrayLike<number>): void {
    if (cc.name !== 'homa') throw new Error(`network.transport.sendDriver: homa needs cc homa, got ${cc.name}`);
    this.configure(cc.params as HomaParams, messageBytes);
  }

  /** The run's parameters and its messages' sizes (the workload's size distribution, for the priority plan). */
  configure(params: HomaParams, sizes: ArrayLike<number>): void {
    this.params = params;
    this.sizes = sizes;
    this.overcommit = params.overcommitment;
  }

  private makePlan(f: Flow): HomaPriorityPlan {
    const p = this.params;
    if (p === null) throw new Error('internal: the homa send driver was not configured (cc homa)');
    const mtu = f.mtuBytes;
    const r = p.rttBytes > 0 ? p.rttBytes : f.maxBaseBdpBytes;
    this.rttBytes = Math.max(1, Math.ceil(r / mtu)) * mtu;
    const plan = homaPriorityPlan(this.sizes, this.rttBytes, p);
    this.scheduledLevels = plan.levels - plan.unscheduled;
    this.plan = plan;
    return plan;
  }

  /** RTTbytes of the run (whole packets), once the first flow started. */
  get rtt(): number {
    return this.rttBytes;
  }

  // ------------------------------------------------------------------ sender

  onStart(f: Flow): void {
    const plan = this.plan ?? this.makePlan(f);
    const size = f.sizeBytes;
    const unsched = size < this.rttBytes ? size : this.rttBytes;
    const s = f.state();
    s.grantLimit = unsched;
    s.homaUnsched = unsched;
    s.homaUnschedPrio = homaUnscheduledLevel(plan, size);
    s.homaSchedPrio = 0;
    // the receiver's side, as the first packet's header tells it (message length, unscheduled bytes)
    s.homaGranted = unsched;
    s.homaLeft = size;
    s.homaIdx = size > unsched ? NOT_LISTED : DONE;
  }

  mayPut(f: Flow): boolean {
    const seq = f.sndNxt;
    const s = f.state();
    if (seq >= s.grantLimit) return false;
    // PFC by the class this packet will take (Homa §3.4 levels), not the flow's
    const cls = seq < s.homaUnsched ? s.homaUnschedPrio : s.homaSchedPrio;
    if (this.t.hosts[f.src]!.port.paused[cls] !== 0) {
      if (!s.homaBlocked) {
        s.homaBlocked = true;
        this.blocked[f.src]!.push(f);
      }
      return false;
    }
    return true;
  }

  packetPrio(f: Flow, seq: number): number {
    const s = f.state();
    return seq < s.homaUnsched ? s.homaUnschedPrio : s.homaSchedPrio;
  }

  onGrant(f: Flow, seq: number, word: number): void {
    const limit = seq + (word >> 3);
    const s = f.state();
    if (limit > s.grantLimit) {
      s.grantLimit = limit;
      s.homaSchedPrio = word & 7;
    }
  }

  // ---------------------------------------------------------------- receiver

  grant(f: Flow): number {
    const s = f.state();
    if (s.homaIdx !== DONE) this.schedule(f, s);
    const credit = s.homaGranted - f.rcvExpected;
    return (credit > 0 ? credit : 0) * 8 + s.homaRxPrio;
  }

  /** A data packet of f arrived: rank f again, grant if it is among the first `overcommitment`. */
  private schedule(f: Flow, s: StrategyState): void {
    const h = f.dst;
    let list = this.lists[h];
    if (list === undefined) {
      list = [];
      this.lists[h] = list;
    }
    const left = f.sizeBytes - f.rcvExpected - s.rcvOooBytes;
    s.homaLeft = left;
    let i = s.homaIdx;
    if (i === NOT_LISTED) {
      i = list.length;
      list.push(f);
    }
    // fewer bytes left than before: move toward the front
    while (i > 0 && before(f, list[i - 1]!)) {
      const g = list[i - 1]!;
      list[i] = g;
      g.strategy!.homaIdx = i;
      i--;
    }
    list[i] = f;
    s.homaIdx = i;
    const k = this.overcommit;
    if (i >= k) return;
    const n = list.length < k ? list.length : k;
    s.homaRxPrio = homaScheduledLevel(i, n, this.scheduledLevels);
    const size = f.sizeBytes;
    let g = f.sizeBytes - left + this.rttBytes;
    if (g > size) g = size;
    if (g > s.homaGranted) s.homaGranted = g;
    if (s.homaGranted >= size) this.remove(list, f, i);
  }

  /** f is fully granted: it leaves the list, and the message that moves into the first `overcommitment` is granted now. */
  private remove(list: Flow[], f: Flow, i: number): void {
    for (let j = i + 1; j < list.length; j++) {
      const g = list[j]!;
      list[j - 1] = g;
      g.strategy!.homaIdx = j - 1;
    }
    list.length--;
    f.strategy!.homaIdx = DONE;
    const k = this.overcommit;
    if (list.length < k) return;
    const e = list[k - 1]!;
    const es = e.strategy!;
    let g = e.sizeBytes - es.homaLeft + this.rttBytes;
    if (g > e.sizeBytes) g = e.sizeBytes;
    if (g <= es.homaGranted) return;
    es.homaGranted = g;
    es.homaRxPrio = homaScheduledLevel(k - 1, k, this.scheduledLevels);
    this.sendGrant(e);
    if (g >= e.sizeBytes) this.remove(list, e, k - 1);
  }

  /** A grant of its own to e's sender (an ACK with e's cumulative sequence). */
  private sendGrant(e: Flow): void {
    const pk = this.t.pool;
    const a = controlAck(pk, e, this.grantClass);
    const es = e.strategy!;
    const credit = es.homaGranted - e.rcvExpected;
    pk.setXack(a, (credit > 0 ? credit : 0) * 8 + es.homaRxPrio);
    this.t.hosts[e.dst]!.sendControl(a, this.grantClass);
  }
}

/** SRPT order: fewer bytes left first, ties to the lower flow id (the older message) */
function before(a: Flow, b: Flow): boolean {
  const x = a.strategy!.homaLeft;
  const y = b.strategy!.homaLeft;
  return x < y || (x === y && a.id < b.id);
}
