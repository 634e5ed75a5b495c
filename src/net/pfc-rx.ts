/**
 * The receiving side of PFC at an egress port (docs/network-model.md §11.3): a PAUSE or
 * RESUME frame from the peer stops or restarts class `cls` of the port's queues, and in
 * quanta mode a pause lapses at its expiry unless refreshed. Kept beside `Port` (port.ts),
 * whose fields it sets; a host's NIC and a switch call it when a PFC frame arrives.
 */
import type { Port } from './port.js';

/** A PFC frame for class `cls` reached `port` at `now` (ps): pause (until `untilPs` in quanta mode, else 0) or resume. */
export function pfcReceived(port: Port, now: number, cls: number, pause: boolean, untilPs: number): void {
  if (pause) {
    port.pausesReceived++;
    if (port.paused[cls] === 0) {
      port.pauseStartPs[cls] = now;
      if (port.ctx.acct !== null) port.ctx.acct.pause(port.gid, cls, now, true);
    }
    port.paused[cls] = 1;
    port.pausedMask |= 1 << cls;
    port.pausedUntil[cls] = untilPs;
  } else {
    port.resumesReceived++;
    if (port.paused[cls] === 1) {
      port.lastOnStartPs[cls] = now;
      if (port.ctx.acct !== null) port.ctx.acct.pause(port.gid, cls, now, false);
    }
    port.paused[cls] = 0;
    port.pausedMask &= ~(1 << cls) | port.blockedMask;
    port.pausedUntil[cls] = 0;
    port.kick();
  }
}

/** Quanta mode: the pause of class `cls` at `port` lapses at `now` unless a later PAUSE refreshed it. */
export function pfcExpiry(port: Port, now: number, cls: number): void {
  if (port.paused[cls] === 1 && port.pausedUntil[cls]! > 0 && now >= port.pausedUntil[cls]!) {
    port.lastOnStartPs[cls] = now;
    if (port.ctx.acct !== null) port.ctx.acct.pause(port.gid, cls, now, false);
    port.paused[cls] = 0;
    port.pausedMask &= ~(1 << cls) | port.blockedMask;
    port.pausedUntil[cls] = 0;
    port.kick();
  }
}
