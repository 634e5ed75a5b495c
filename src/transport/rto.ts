/**
 * The sender's retransmission timeout (docs/network-model.md §10.3: D-OSCAR's
 * 10 ms; §10.2 / §11.7: lossy runs turn one on for D-HPCC): one pending event
 * per flow, armed by a send when none is pending; an ACK only moves the
 * deadline (`Flow.rtoDeadline`), and an event that fires early re-posts itself
 * for it. When it expires with data outstanding the loss-recovery strategy
 * acts (`LossRecovery.onTimeout`: go-back-N rewinds to sndUna, selective marks
 * the outstanding packets lost) and the CC hears `onRto`.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Host } from '../net/host.js';
import type { Flow } from './flow.js';
import type { LossRecovery } from './loss-recovery.js';

export class RetransmitTimer {
  private readonly kind: number;

  constructor(
    private readonly sched: Scheduler,
    private readonly flows: readonly (Flow | null)[],
    private readonly hosts: readonly Host[],
    private readonly recovery: LossRecovery,
    /** the time argument handed to the scheduler (not a small integer: see Scheduler.scheduleFrom) */
    private readonly timeArg: Float64Array,
    /** timeout, ps (> 0) */
    readonly rtoPs: number,
  ) {
    this.kind = sched.register({
      fire: (id) => {
        // a released flow finished: its timeout would return at once
        const f = this.flows[id];
        if (f !== null && f !== undefined) this.fire(f);
      },
    }, 'Transport.onRtoEvent');
  }

  /** f sent a packet with no timeout pending: arm one. */
  arm(f: Flow, now: number): void {
    f.rtoDeadline = now + this.rtoPs;
    f.rtoPending = true;
    this.post(f);
  }

  // the event at f's deadline, the time through `timeArg` (see Scheduler.scheduleFrom)
  private post(f: Flow): void {
    const a = this.timeArg;
    a[0] = f.rtoDeadline;
    this.sched.postAt(a, 0, this.kind, f.id, 0);
  }

  private fire(f: Flow): void {
    f.rtoPending = false;
    if (f.finished) return;
    const now = this.sched.now;
    if (now < f.rtoDeadline) {
      f.rtoPending = true;
      this.post(f);
      return;
    }
    if (f.sndUna >= f.maxSentSeq) {
      // nothing outstanding: re-arm lazily on the next send
      return;
    }
    f.timeouts++;
    this.recovery.onTimeout(f);
    const host = this.hosts[f.src]!;
    host.touch(f);
    if (f.cc.onRto !== undefined) f.cc.onRto();
    f.rtoDeadline = now + this.rtoPs;
    f.rtoPending = true;
    this.post(f);
    host.port.kick();
  }
}
