// Runs bench (s)'s workload on the WebAssembly wheel (wheel.wasm, built from wheel.ts), two ways:
// `js-loop`, with the event loop and the handlers in JavaScript calling the wheel's pop and post
// (as ccsim's handlers would), and `wasm-loop`, with the whole loop inside WebAssembly.
// usage: node bench/wasm-wheel/run.mjs [js-loop|wasm-loop] [simulated ms, default 20]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const mode = process.argv[2] ?? 'js-loop';
const untilPs = Number(process.argv[3] ?? 20) * 1e9;
const wasm = readFileSync(fileURLToPath(new URL('./wheel.wasm', import.meta.url)));
const { instance } = await WebAssembly.instantiate(wasm, { env: { abort() { throw new Error('wheel.wasm aborted'); } } });
const w = instance.exports;
w.init();
// the same elements and delay table as bench (s)
const elements = 1100;
const delays = new Int32Array(w.memory.buffer, w.delaysAt(), 1 << 16);
let x = 12345;
for (let i = 0; i < delays.length; i++) {
  x = (Math.imul(x, 1103515245) + 12345) >>> 0;
  delays[i] = 80 * 1000 + (x % 1_200_000);
}
for (let i = 0; i < elements; i++) {
  w.post(2 * i, delays[i], 0);
  w.post(2 * i + 1, delays[elements + i], 0);
}
let k = 0;
class Element {
  constructor(i) { this.txSlot = 2 * i; this.arriveSlot = 2 * i + 1; }
  onTxDone() { w.post(this.txSlot, delays[k++ & 0xffff], 0); }
  onArrive() { w.post(this.arriveSlot, delays[k++ & 0xffff], 1e6); }
}
const els = Array.from({ length: elements }, (_, i) => new Element(i));
const t0 = performance.now();
let n = 0;
if (mode === 'wasm-loop') n = w.runAll(untilPs);
else {
  for (;;) {
    const s = w.pop(untilPs);
    if (s < 0) break;
    n++;
    if ((s & 1) !== 0) els[s >> 1].onArrive();
    else els[s >> 1].onTxDone();
  }
}
const ms = performance.now() - t0;
console.log(`${mode}: ${n} events, ${(ms / 1000).toFixed(3)} s, ${((1e6 * ms) / n).toFixed(1)} ns per event`);
