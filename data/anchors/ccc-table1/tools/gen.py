#!/usr/bin/env python3
"""Writes the ccc250 topology (ccsim's fatTree preset ccc250: k=10, node order hosts 0-249,
edges 250-299, aggs 300-349, cores 350-374, 'blocked' core wiring, 25G host / 100G fabric links,
1.6 us each) and the S1 / S2 flow lists in the reference simulator's file formats."""
import os
pods, epp, app, hpe, cores = 10, 5, 5, 5, 25
hosts = pods * epp * hpe
edge0, agg0, core0 = hosts, hosts + pods * epp, hosts + pods * epp + pods * app
links = []
for h in range(hosts):
    links.append((h, edge0 + h // hpe, '25000000000.0'))
for p in range(pods):
    for e in range(epp):
        for a in range(app):
            links.append((edge0 + p * epp + e, agg0 + p * app + a, '100000000000.0'))
per = cores // app
for p in range(pods):
    for a in range(app):
        for c in range(a * per, (a + 1) * per):
            links.append((agg0 + p * app + a, core0 + c, '100000000000.0'))
nsw = pods * epp + pods * app + cores
with open('topology-ccc250.txt', 'w') as f:
    f.write(f'{hosts + nsw} {nsw} {nsw} {len(links)}\n')
    f.write(' '.join(str(edge0 + i) for i in range(nsw)) + '\n')
    for a, b, r in links:
        f.write(f'{a} {b} {r} 1600ns 0\n')
# flow line: src dst pg dport size(bytes) start(s)
s1 = [(25, 12_500_000), (50, 1_875_000), (75, 1_875_000), (100, 1_875_000), (125, 1_875_000)]
with open('flow-s1.txt', 'w') as f:
    f.write(f'{len(s1)}\n')
    for i, (src, size) in enumerate(s1):
        f.write(f'{src} 0 3 {100 + i} {size} 0\n')
with open('flow-s2.txt', 'w') as f:
    f.write('100\n')
    for i, src in enumerate(range(25, 125)):
        f.write(f'{src} 0 3 {100 + i} 1000000000000 0\n')
