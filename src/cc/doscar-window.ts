/**
 * The OSCAR artifact's window plumbing for window-based CCs
 * (docs/network-model.md §10.3 `RoCEv2CongestionOps::SetCwnd`), shared by Swift and
 * Poseidon: the window is floored at MinRateRatio·baseBdp; a window below one
 * packet is paced at (cwnd / baseBdp)·C, otherwise the flow runs at line rate
 * and only the window limits it.
 */
import type { CcFlow } from './types.js';

/** Applies window `w` (bytes) the D-OSCAR way and returns the window actually set. */
export function setDoscarCwnd(f: CcFlow, w: number): number {
  const floor = (f.minRateBps / f.lineRateBps) * f.baseBdpBytes;
  const cwnd = w > floor ? w : floor;
  f.setRate(cwnd < f.dataWireBytes ? (cwnd / f.baseBdpBytes) * f.lineRateBps : f.lineRateBps);
  f.setCwnd(cwnd);
  return cwnd;
}
