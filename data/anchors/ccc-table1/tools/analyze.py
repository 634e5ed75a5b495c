#!/usr/bin/env python3
"""CCC Table 1 metrics from a ccc-table1 run directory, with the rules of ccsim's
experiments/ccc/analysis.ts (table1S1 / table1S2):
  RTT = 20.16 us + queue / 25 G from the 1-us queue samples of the receiver downlink;
  throughput in 10-us bins labelled by the bin's end.
  S1: E_B = mean bin rate while t <= end of the long flow, / 25 G; E_L = p99.9 RTT of samples
      with 1 ms <= t <= long end; T_B = first bin after the last short flow's end with > 95 %.
  S2: E_B = mean over the run; T_L1 = first time >= the first sample above 63 KB at which the
      queue is <= 63 KB for 10 consecutive samples; E_L = p99.9 RTT from T_L1 (or 1 ms);
      T_L2 = drops / data packets sent (drops = the MMU's 'dropping' lines, packets = every
      data packet a NIC put on the wire, retransmissions included).
usage: analyze.py s1|s2 <run dir> [--json]"""
import json, sys
import numpy as np
C = 25e9; RTT_MIN_US = 20.16
scen, d = sys.argv[1], sys.argv[2]
q = np.loadtxt(f'{d}/queue.txt', ndmin=2); qt, qv = q[:, 0], q[:, 1]
tp = np.loadtxt(f'{d}/tp.txt', ndmin=2); tt = tp[:, 0]; tbin = np.diff(np.concatenate([[0], tt]))
tv = tp[:, 1] * 8 / (tbin * 1e-9)
rtt = lambda b: RTT_MIN_US + b * 8 / C * 1e6
pct = lambda xs, p: float(np.percentile(xs, p)) if len(xs) else float('nan')
summ = dict(l.split() for l in open(f'{d}/summary.txt'))
drops = sum(1 for l in open(f'{d}/stdout.txt') if l.startswith('dropping') or l.startswith('reverie: dropping'))
sent = int(summ['qp_data_packets_sent'])
out = {'run': d.rstrip('/').split('/')[-1], 'drops': drops, 'data_packets_sent': sent,
}
if scen == 's1':
    fct = [l.split() for l in open(f'{d}/fct.txt')]
    ends = [(int(r[4]), (int(r[5]) + int(r[6]))) for r in fct]
    long_end = max(e for s, e in ends if s == 12_500_000)
    short_end = max(e for s, e in ends if s != 12_500_000)
    out['flows_finished'] = len(fct)
    out['E_B'] = float(np.mean(tv[tt <= long_end]) / C)
    out['E_L_us'] = pct(rtt(qv[(qt >= 1e6) & (qt <= long_end)]), 99.9)
    idx = np.where((tt > short_end) & (tt <= long_end) & (tv > 0.95 * C))[0]
    out['T_B_us'] = float((tt[idx[0]] - short_end) / 1e3) if len(idx) else None
    out['short_end_ms'] = short_end / 1e6; out['long_end_ms'] = long_end / 1e6
else:
    thr = RTT_MIN_US * 1e-6 * C / 8
    out['E_B'] = float(np.mean(tv) / C)
    hi = np.where(qv > thr)[0]
    tl1 = None
    if len(hi):
        run = 0
        for i in range(hi[0], len(qv)):
            if qv[i] <= thr:
                run += 1
                if run >= 10: tl1 = qt[i - 9]; break
            else: run = 0
    else: tl1 = 0.0
    el_from = tl1 if tl1 is not None else 1e6
    out['T_L1_ms'] = None if tl1 is None else float(tl1 / 1e6)
    out['E_L_us'] = pct(rtt(qv[qt >= el_from]), 99.9)
    out['T_L2_pct'] = 100 * drops / sent if sent else float('nan')
    out['run_ms'] = float(qt[-1] / 1e6)
    out['peak_queue_KB'] = float(qv.max() / 1e3)
print(json.dumps(out) if '--json' in sys.argv else '\n'.join(f'{k}: {v}' for k, v in out.items()))
