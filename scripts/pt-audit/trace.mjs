// PowerTCP short-flow audit tool (experiments/powertcp/README.md, "PowerTCP vs HPCC on short flows").
// Usage (after npm run build): node scripts/pt-audit/trace.mjs <spec.yaml> <out.json> <stop ms> <sample-until ms>
// Steps a Simulation and wraps Port.enqueue/dequeue and Host.pull (in this process only) to measure, for every
// data packet and ACK of the short flows (< 10 KB), the queueing wait at each switch egress port by tier.
import { loadAndResolve, Simulation } from '../../dist/src/index.js';
import { Port } from '../../dist/src/net/port.js';
import { Host } from '../../dist/src/net/host.js';
import { writeFileSync } from 'node:fs';
const [specPath, outPath, horizonMs] = process.argv.slice(2);
const { input } = loadAndResolve(specPath);
const sim = new Simulation(input);
const topo = input.topology;
const H = topo.hostCount;
const pk = sim.ctx.pool;
const tr = sim.transport;
const sched = sim.sched;
const names = topo.nodes.map((n) => n.name);
const tierOf = (n) => (n < H ? 'host' : /tor|edge/i.test(names[n]) ? 'tor' : /agg/i.test(names[n]) ? 'agg' : 'core');
function cls(port) {
  const a = tierOf(port.node), b = tierOf(port.peerNode);
  if (a === 'host') return 'hostNic';
  if (b === 'host') return 'torDown';
  if (a === 'tor') return 'torUp';
  if (a === 'agg' && b === 'tor') return 'aggDown';
  if (a === 'agg') return 'aggUp';
  return 'coreDown';
}
const CLASSES = ['hostNic', 'torUp', 'aggUp', 'coreDown', 'aggDown', 'torDown'];
const SHORT = 10_000;
const enq = new Map(); // key pkt*8192+gid -> enqueue time
const data = new Map(); // flowId -> Map(seq -> Float64Array(6) waits per class)
const ackW = new Map(); // flowId -> max total ACK wait
const ackM = new Map(); // flowId -> Map(ack seq -> waits per class)
const txT = new Map(); // flowId -> [first, last] data pull time at the sender NIC
const origPull = Host.prototype.pull;
Host.prototype.pull = function (port) {
  const p = origPull.call(this, port);
  if (p >= 0 && pk.type(p) === 0) {
    const f = tr.flows[pk.flow(p)];
    if (f && f.sizeBytes < SHORT) { const id = pk.flow(p); const a = txT.get(id); if (a) a[1] = sched.now; else txT.set(id, [sched.now, sched.now]); }
  }
  return p;
};
const TAU = 28.96e6; // ps
const AGE = ['age<1tau', '1-2tau', '2-10tau', '>=10tau', 'acks', 'gone'];
const comp = {}; // tier -> { events, bytes per AGE bucket, newFlowsAhead }
function composition(port, aheadUs) {
  let c = portCls.get(port.gid); if (c === undefined) { c = CLASSES.indexOf(cls(port)); portCls.set(port.gid, c); }
  const tier = CLASSES[c];
  const e = comp[tier] ?? (comp[tier] = { events: 0, aheadUs: 0, bytes: new Float64Array(6), flows: 0, youngFlows: 0 });
  e.events++; e.aheadUs += aheadUs;
  const now = sched.now; const seen = new Set();
  for (let q = 0; q < 8; q++) {
    for (let p = port.qs[q * 4]; p !== -1; p = pk.next(p)) {
      const sz = pk.size(p);
      if (pk.type(p) !== 0) { e.bytes[4] += sz; continue; }
      const f = tr.flows[pk.flow(p)];
      if (!f) { e.bytes[5] += sz; continue; }
      const age = now - f.startPs;
      const b = age < TAU ? 0 : age < 2 * TAU ? 1 : age < 10 * TAU ? 2 : 3;
      e.bytes[b] += sz;
      if (!seen.has(f.id)) { seen.add(f.id); e.flows++; if (age < TAU) e.youngFlows++; }
    }
  }
}
const origEnq = Port.prototype.enqueue;
const origDeq = Port.prototype.dequeue;
const portCls = new Map();
Port.prototype.enqueue = function (p, q, size) {
  const t = pk.type(p);
  if (t === 0 || t === 1) {
    const f = tr.flows[pk.flow(p)];
    if (f && f.sizeBytes < SHORT) {
      enq.set(p * 8192 + this.gid, sched.now);
      const aheadUs = (this.totalBytes * 8) / this.rateBps * 1e6;
      if (aheadUs > 5 && this.node >= H) composition(this, aheadUs);
    }
  }
  return origEnq.call(this, p, q, size);
};
Port.prototype.dequeue = function () {
  const p = origDeq.call(this);
  if (p >= 0) {
    const k = p * 8192 + this.gid;
    const t0 = enq.get(k);
    if (t0 !== undefined) {
      enq.delete(k);
      const w = sched.now - t0;
      let c = portCls.get(this.gid);
      if (c === undefined) { c = CLASSES.indexOf(cls(this)); portCls.set(this.gid, c); }
      const fid = pk.flow(p);
      if (pk.type(p) === 0) {
        let m = data.get(fid); if (!m) { m = new Map(); data.set(fid, m); }
        const s = pk.seq(p);
        let a = m.get(s); if (!a) { a = new Float64Array(6); m.set(s, a); }
        a[c] += w;
      } else {
        let m = ackM.get(fid); if (!m) { m = new Map(); ackM.set(fid, m); }
        const s = pk.seq(p);
        let a = m.get(s); if (!a) { a = new Float64Array(6); m.set(s, a); }
        a[c] += w;
      }
    }
  }
  return p;
};
// queue sampling of every switch port every 1 us
const ports = sim.network.nodePorts.flatMap((ps, n) => (n < H ? [] : ps));
const qhist = {}; // class -> histogram of KB (0..2000)
for (const c of CLASSES) qhist[c] = new Float64Array(2001);
const horizon = Number(horizonMs ?? 200) * 1e9;
const sampleEnd = Number(process.argv[5] ?? horizonMs) * 1e9;
const US = 1e6;
let t = 0;
const t0 = performance.now();
while (t < horizon) {
  t += US;
  sim.sched.now; sim.runUntil(t);
  if (t >= 100e9 && t <= sampleEnd) for (const p of ports) { const c = cls(p); const kb = Math.min(2000, Math.floor(p.totalBytes / 1000)); qhist[c][kb]++; }
  if ((t / US) % 20000 === 0) console.error(`t=${t / 1e9} ms wall ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
const out = sim.finish();
const rows = [];
for (const r of out.fct) {
  if (r.bytes >= SHORT) continue;
  const m = data.get(r.id);
  let worst = null, worstSum = -1;
  if (m) for (const a of m.values()) { const s = a.reduce((x, y) => x + y, 0); if (s > worstSum) { worstSum = s; worst = a; } }
  let aw = null, awSum = -1;
  const am = ackM.get(r.id);
  if (am) for (const a of am.values()) { const s = a.reduce((x, y) => x + y, 0); if (s > awSum) { awSum = s; aw = a; } }
  const tx = txT.get(r.id);
  rows.push({ id: r.id, src: r.src, dst: r.dst, bytes: r.bytes, start: r.startPs, fct: r.fctPs, ideal: r.idealFctPs, worst: worst ? Array.from(worst) : null, ack: aw ? Array.from(aw) : null, tx0: tx ? tx[0] - r.startPs : -1, tx1: tx ? tx[1] - r.startPs : -1 });
}
const qh = {}; for (const c of CLASSES) qh[c] = Array.from(qhist[c]);
const compOut = {}; for (const [k, v] of Object.entries(comp)) compOut[k] = { ...v, bytes: Array.from(v.bytes) };
writeFileSync(outPath, JSON.stringify({ classes: CLASSES, rows, qh, comp: compOut, AGE, totals: out.totals, unfinished: out.unfinished.length }));
console.error('done', rows.length, 'short flows; drops', out.totals.drops, 'unfinished', out.unfinished.length);
