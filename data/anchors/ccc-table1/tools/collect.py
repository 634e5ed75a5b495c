#!/usr/bin/env python3
"""Collects the ccc-table1 reference runs into ccsim's data/anchors/ccc-table1/: per run the
command line (local paths replaced), the metrics (analyze.py), the wall time, S1's fct.txt, and
a reduced queue trace (max queue per 10 us for S1 and for S2's first 20 ms, per 1 ms after)."""
import json, os, re, subprocess, sys, gzip
import numpy as np
src = '/work/ns3ref/ccc/runs'; dst = sys.argv[1]
rows = []
for name in sorted(os.listdir(src)):
    d = f'{src}/{name}'
    if not os.path.exists(f'{d}/summary.txt') or 'marks' in name or 'inj' in name: continue
    scen = name.split('-')[0]
    m = json.loads(subprocess.check_output(['python3', '/work/ns3ref/ccc/analyze.py', scen, d, '--json']))
    cmd = open(f'{d}/cmdline.txt').read().strip()
    cmd = cmd.replace('/work/ns3ref/ccc/', '<helper>/')
    err = open(f'{d}/stderr.txt').read()
    wall = re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)', err).group(1)
    env = ''
    mm = re.search(r'rng(\d+)', name)
    if mm: env = f'NS_GLOBAL_VALUE="RngRun={mm.group(1)}" '
    started = open(f'{d}/started.txt').read().strip()
    o = f'{dst}/runs/{name}'; os.makedirs(o, exist_ok=True)
    m.update({'command': env + cmd, 'wall': wall, 'started_utc': started})
    json.dump(m, open(f'{o}/metrics.json', 'w'), indent=1)
    if scen == 's1':
        open(f'{o}/fct.txt', 'w').write(open(f'{d}/fct.txt').read())
    if 'rng' not in name:
        q = np.loadtxt(f'{d}/queue.txt')
        t, v = q[:, 0], q[:, 1]
        lines = ['t_end_ns,max_queue_bytes']
        edges = list(np.arange(10000, 20e6 + 1, 10000)) + list(np.arange(21e6, t[-1] + 1, 1e6))
        lo = 0
        for e in edges:
            hi = np.searchsorted(t, e, side='right')
            if hi > lo: lines.append(f'{int(e)},{int(v[lo:hi].max())}')
            lo = hi
        with open(f'{o}/queue-max.csv.gz', 'wb') as raw, gzip.GzipFile(fileobj=raw, mode='wb', mtime=0) as f: f.write(('\n'.join(lines) + '\n').encode())  # mtime 0: byte-identical re-runs
    rows.append(m)
keys = ['run', 'E_B', 'E_L_us', 'T_B_us', 'T_L1_ms', 'T_L2_pct', 'drops', 'data_packets_sent', 'wall']
with open(f'{dst}/results.csv', 'w') as f:
    f.write(','.join(keys) + '\n')
    for m in rows:
        f.write(','.join('' if m.get(k) is None else (f'{m[k]:.4g}' if isinstance(m.get(k), float) else str(m[k])) for k in keys) + '\n')
print(open(f'{dst}/results.csv').read())
