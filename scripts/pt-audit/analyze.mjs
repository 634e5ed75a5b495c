// Summarises out.json files of scripts/pt-audit/trace.mjs: node scripts/pt-audit/analyze.mjs out1.json [out2.json ...]
import { readFileSync } from 'node:fs';
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); if (!s.length) return NaN; const i = (s.length - 1) * p; const lo = Math.floor(i), hi = Math.ceil(i); return s[lo] + (s[hi] - s[lo]) * (i - lo); };
for (const f of process.argv.slice(2)) {
  const d = JSON.parse(readFileSync(f, 'utf8'));
  const rows = d.rows;
  const fct = rows.map((r) => r.fct / 1e6);
  const ex = rows.map((r) => (r.fct - r.ideal) / 1e6);
  console.log(`\n== ${f}: ${rows.length} short flows, drops ${d.totals.drops}, unfinished ${d.unfinished}`);
  console.log(`FCT us: p50 ${pct(fct, .5).toFixed(1)} p99 ${pct(fct, .99).toFixed(1)} p99.9 ${pct(fct, .999).toFixed(1)} max ${Math.max(...fct).toFixed(1)}; ideal p50 ${pct(rows.map(r=>r.ideal/1e6),.5).toFixed(1)}; excess p99 ${pct(ex,.99).toFixed(1)}`);
  // mean switch wait of the worst packet per class, over all short flows and over the slowest 5 %
  const C = d.classes;
  const sorted = [...rows].sort((a, b) => b.fct - a.fct);
  const top = sorted.slice(0, Math.max(1, Math.ceil(rows.length * 0.05)));
  const avg = (rs, i) => rs.reduce((s, r) => s + (r.worst ? r.worst[i] : 0), 0) / rs.length / 1e6;
  console.log('worst-packet queue wait per tier (us), all / slowest 5%:', C.map((c, i) => `${c} ${avg(rows, i).toFixed(2)}/${avg(top, i).toFixed(2)}`).join('  '));
  const avgA = (rs, i) => rs.reduce((s, r) => s + (r.ack ? r.ack[i] : 0), 0) / rs.length / 1e6;
  console.log('worst-ACK queue wait per tier (us), all / slowest 5%:', C.map((c, i) => `${c} ${avgA(rows, i).toFixed(2)}/${avgA(top, i).toFixed(2)}`).join('  '));
  const sd = (rs) => rs.reduce((s, r) => s + (r.tx1 - ((Math.ceil(r.bytes/1000)-1) * 0.3488e6)), 0) / rs.length / 1e6;
  console.log(`sender NIC extra (last pkt tx start - start - (n-1) x 0.349 us), mean all / slowest 5%: ${sd(rows).toFixed(2)} / ${sd(top).toFixed(2)} us`);
  const dec = (r) => { const d = r.worst ? r.worst.reduce((a,b)=>a+b,0) : 0; const k = r.ack ? r.ack.reduce((a,b)=>a+b,0) : 0; const s = r.tx1 - (Math.ceil(r.bytes/1000)-1)*0.3488e6; return [d, k, s]; };
  const D = top.map(dec); const mean = (j) => D.reduce((a, x) => a + x[j], 0) / D.length / 1e6;
  console.log(`slowest 5%: mean excess ${(top.reduce((a,r)=>a+r.fct-r.ideal,0)/top.length/1e6).toFixed(2)} us = data-queue ${mean(0).toFixed(2)} + ack-queue ${mean(1).toFixed(2)} + sender ${mean(2).toFixed(2)} + rest`);
  console.log('slowest 8:', sorted.slice(0, 8).map((r) => `fct ${(r.fct/1e6).toFixed(1)} ideal ${(r.ideal/1e6).toFixed(1)} B ${r.bytes} [${r.worst ? r.worst.map(w => (w/1e6).toFixed(1)).join(',') : '-'}] ack [${r.ack ? r.ack.map(w => (w/1e6).toFixed(1)).join(',') : '-'}] snd ${((r.tx1)/1e6).toFixed(1)}`).join('\n  '));
  if (d.comp) for (const [tier, e] of Object.entries(d.comp)) {
    const tot = e.bytes.reduce((x, y) => x + y, 0);
    console.log(`  ${tier}: ${e.events} short-flow packets met > 5 us of queue (mean ${(e.aheadUs / e.events).toFixed(1)} us); bytes ahead by sender-flow age: ` + d.AGE.map((n, i) => `${n} ${(100 * e.bytes[i] / tot).toFixed(0)}%`).join(' ') + `; flows ahead/event ${(e.flows / e.events).toFixed(1)} (first-RTT ${(e.youngFlows / e.events).toFixed(1)})`);
  }
  // queue occupancy distribution per tier (1-us samples over all switch ports of that tier)
  for (const c of C) {
    const h = d.qh[c]; const n = h.reduce((a, b) => a + b, 0); if (!n) continue;
    let cum = 0; const q = {}; const want = [0.5, 0.9, 0.99, 0.999];
    for (let kb = 0; kb < h.length; kb++) { cum += h[kb]; for (const w of want) if (q[w] === undefined && cum / n >= w) q[w] = kb; }
    const nz = 1 - h[0] / n;
    console.log(`  queue ${c}: P(>=1KB) ${(100*nz).toFixed(2)} %  p50 ${q[.5]} p90 ${q[.9]} p99 ${q[.99]} p99.9 ${q[.999]} KB`);
  }
}
