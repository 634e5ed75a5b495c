/**
 * PowerTCP's per-hop INT arithmetic under per-packet spraying (issue 42 item 4; OSCAR §6.4
 * Fig. 10b, App. A.3): successive ACKs carry, at the same hop index, the counters of two
 * different ports (two uplinks of a leaf, two spines). `intDeltas: exact` differences ccsim's
 * exact counters and skips a hop whose timestamp did not advance; `intDeltas: artifact` takes
 * the OSCAR artifact's IntHop fields (ns mod 2^24, 128-B units mod 2^20, 80-B units mod 2^16)
 * and divides without a guard, so a zero time delta turns Γ into NaN for good and the window
 * sits at its cap. The law is driven here directly, one hop, no network.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { powertcpCc } from '../src/cc/powertcp.js';
import { newAckInfo } from '../src/transport/ack-info.js';
import type { CcInstance } from '../src/cc/types.js';
import { fakeCcFlow, type RecordingFlow } from './helpers/fake-flow.js';

const C = 100e9;
const BDP = 150_000; // 12 us at 100 G
const NS = 1000; // ps

interface Rig {
  cc: CcInstance;
  f: RecordingFlow & { cwnd: number };
  seq: number;
}

function rig(intDeltas: 'exact' | 'artifact'): Rig {
  const f = fakeCcFlow({ lineRateBps: C, baseRttPs: 12e6, baseBdpBytes: BDP, profile: 'oscar' }) as RecordingFlow & { cwnd: number };
  f.cwnd = BDP;
  f.setCwnd = (w: number) => {
    f.cwnd = w;
  };
  const p = powertcpCc.params.parse({ profile: 'oscarArtifact', intDeltas });
  return { cc: powertcpCc.create(f, p), f, seq: 0 };
}

/** One ACK echoing one hop (100 G port): timestamp (ps), the port's tx-byte counter, its queue (bytes). */
function ack(r: Rig, tsPs: number, txBytes: number, qBytes: number): void {
  const a = newAckInfo();
  r.seq += 1000;
  a.seq = r.seq;
  a.maxSentSeq = r.seq + BDP; // w_old refreshes once per window of ACKs
  a.intHops = 1;
  a.intTsPs[0] = tsPs;
  a.intTxBytes[0] = txBytes;
  a.intQlenBytes[0] = qBytes;
  a.intRateBps[0] = C;
  r.cc.onAck(a);
}

/** `n` ACKs 100 ns apart from one port sending at line rate (1250 B per 100 ns) with a standing queue. */
function onePort(r: Rig, n: number, q: number, t0 = 1000 * NS, tx0 = 7e6): void {
  for (let k = 0; k < n; k++) ack(r, t0 + k * 100 * NS, tx0 + k * 1250, q);
}

test('one port per hop (ECMP): the artifact arithmetic gives the exact window to its units\' rounding', () => {
  const ex = rig('exact');
  const ar = rig('artifact');
  onePort(ex, 600, 20_000);
  onePort(ar, 600, 20_000);
  assert.ok(ex.f.cwnd < BDP, `a standing queue holds the window below the cap (${ex.f.cwnd})`);
  assert.ok(Math.abs(ar.f.cwnd - ex.f.cwnd) < 0.03 * ex.f.cwnd, `artifact ${ar.f.cwnd} vs exact ${ex.f.cwnd}`);
});

test('two ports alternating at one hop: the mixed tx-byte deltas collapse the window either way', () => {
  for (const mode of ['exact', 'artifact'] as const) {
    const r = rig(mode);
    // ports A and B at 50 G each, counters 3 MB apart; the flow's packets alternate between them
    for (let k = 0; k < 200; k++) ack(r, 1000 * NS + k * 100 * NS, (k % 2 === 0 ? 5e6 : 2e6) + k * 625, 0);
    // exact: every B->A sample reads +3 MB in 100 ns (A->B is negative and ignored); artifact: both wrap positive
    assert.ok(r.f.cwnd < 0.05 * BDP, `${mode}: window ${r.f.cwnd} B`);
  }
});

test('a zero time delta between two ports: the artifact latches Γ = NaN and holds the window at its cap', () => {
  const ar = rig('artifact');
  const ex = rig('exact');
  for (const r of [ar, ex]) {
    onePort(r, 50, 20_000); // port A, last sample at 5.9 us
    // port B in the same whole ns as that last A sample, with another counter and a longer queue
    ack(r, 5900 * NS + 400, 2e6, 40_000);
    // then heavy congestion on one port (1 MB queue): a finite Γ would cut the window hard
    onePort(r, 300, 1e6, 7000 * NS, 9e6);
  }
  assert.equal(ar.f.cwnd, BDP, 'NaN stays in the EWMA: the artifact window stays at BDP_base');
  assert.ok(ex.f.cwnd < 0.5 * BDP, `exact: the 0.4-ns sample reads a negative rate and is ignored, Γ stays finite and the queue cuts the window (${ex.f.cwnd})`);
});

test('a reordered ACK (time delta below zero): the artifact weighs a ~16.8 ms interval and drives Γ far below zero', () => {
  const ar = rig('artifact');
  const ex = rig('exact');
  for (const r of [ar, ex]) {
    onePort(r, 400, 20_000); // port A up to 40.9 us
    // the ACK of a packet that left the hop 200 ns before the last one arrives late
    ack(r, 40_700 * NS, 7e6 + 397 * 1250, 20_000);
    onePort(r, 100, 20_000, 41_000 * NS, 7e6 + 401 * 1250);
  }
  // exact: the negative interval is skipped; artifact: Δt = 2^24 ns - 200 ns gives the EWMA a weight
  // of ~1400 (no Δt clamp in the oscarArtifact profile, the artifact's Fig. 10b DeltaTBound false), Γ
  // lands near -560 and the window (w_old/Γ ≈ 0) falls toward 0.1·w_old at each refresh
  assert.ok(ar.f.cwnd < 0.3 * ex.f.cwnd, `artifact ${ar.f.cwnd} vs exact ${ex.f.cwnd}`);
});

test('intDeltas artifact needs the tx-byte INT fields', () => {
  assert.equal(powertcpCc.params.safeParse({ profile: 'inetTub', intDeltas: 'artifact' }).success, false);
  assert.equal(powertcpCc.params.safeParse({ profile: 'inetTub', lambdaSource: 'txBytes', intDeltas: 'artifact' }).success, true);
});
