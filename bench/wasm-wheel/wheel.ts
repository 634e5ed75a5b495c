// AssemblyScript, not TypeScript (excluded from tsconfig): bench (s)'s timing wheel with
// direct slots only, as a measurement of what the scheduler would cost in WebAssembly.
// README.md here says how to build and run it; docs/journal.md (2026-11-26, third session) has the numbers.
const W: f64 = 1000;
const INV_W: f64 = 1.0 / W;
const B: i32 = 1 << 16;
const BMASK: i32 = B - 1;
const WORDS: i32 = B >> 5;
const CAP: i32 = 4096;
// memory layout (bytes)
const TIME: usize = 0;               // f64 * CAP
const NEXT: usize = TIME + CAP * 8;  // i32 * CAP
const HEAD: usize = NEXT + CAP * 4;  // i32 * B
const TAIL: usize = HEAD + B * 4;    // i32 * B
const BITS: usize = TAIL + B * 4;    // u32 * WORDS
const END: usize = BITS + WORDS * 4 + (1 << 18);

let now: f64 = 0;
let cur: i32 = 0;
let inWheel: i32 = 0;
export let events: i32 = 0;

export function init(): void {
  const pages = <i32>((END + 65535) >> 16);
  memory.grow(pages);
  for (let b = 0; b < B; b++) { store<i32>(HEAD + (<usize>b << 2), -1); store<i32>(TAIL + (<usize>b << 2), -1); }
}
export function getNow(): f64 { return now; }

@inline function append(slot: i32, b: i32): void {
  const t = load<f64>(TIME + (<usize>slot << 3));
  const tl = load<i32>(TAIL + (<usize>b << 2));
  if (tl < 0) {
    store<i32>(NEXT + (<usize>slot << 2), -1);
    store<i32>(HEAD + (<usize>b << 2), slot);
    store<i32>(TAIL + (<usize>b << 2), slot);
    const wa = BITS + (<usize>(b >> 5) << 2);
    store<u32>(wa, load<u32>(wa) | (<u32>1 << (b & 31)));
  } else if (load<f64>(TIME + (<usize>tl << 3)) <= t) {
    store<i32>(NEXT + (<usize>slot << 2), -1);
    store<i32>(NEXT + (<usize>tl << 2), slot);
    store<i32>(TAIL + (<usize>b << 2), slot);
  } else {
    let p = -1;
    let c = load<i32>(HEAD + (<usize>b << 2));
    while (load<f64>(TIME + (<usize>c << 3)) <= t) { p = c; c = load<i32>(NEXT + (<usize>c << 2)); }
    store<i32>(NEXT + (<usize>slot << 2), c);
    if (p < 0) store<i32>(HEAD + (<usize>b << 2), slot); else store<i32>(NEXT + (<usize>p << 2), slot);
  }
  inWheel++;
}

export function post(slot: i32, a: f64, b: f64): void {
  const at = now + a + b;
  store<f64>(TIME + (<usize>slot << 3), at);
  const bn = <i32>Math.floor(at * INV_W);
  append(slot, bn & BMASK); // experiment: no overflow heap
}

@inline function nextBucket(): i32 {
  const start = cur & BMASK;
  let w = start >> 5;
  let word = load<u32>(BITS + (<usize>w << 2)) & (<u32>0xffffffff << (start & 31));
  while (word == 0) { w = (w + 1) & (WORDS - 1); word = load<u32>(BITS + (<usize>w << 2)); }
  return (w << 5) + <i32>ctz(word);
}

/** the next event's slot, or -1 (none or after until) */
export function pop(until: f64): i32 {
  if (inWheel == 0) return -1;
  const cb = cur & BMASK;
  const b = load<i32>(HEAD + (<usize>cb << 2)) >= 0 ? cb : nextBucket();
  const slot = load<i32>(HEAD + (<usize>b << 2));
  const t = load<f64>(TIME + (<usize>slot << 3));
  if (t > until) { now = until; return -1; }
  cur += (b - cb) & BMASK;
  const nx = load<i32>(NEXT + (<usize>slot << 2));
  store<i32>(HEAD + (<usize>b << 2), nx);
  if (nx < 0) {
    store<i32>(TAIL + (<usize>b << 2), -1);
    const wa = BITS + (<usize>(b >> 5) << 2);
    store<u32>(wa, load<u32>(wa) & ~(<u32>1 << (b & 31)));
  }
  inWheel--;
  now = t;
  events++;
  return slot;
}

/** the whole (s) loop inside wasm: delays table at DEL (i32 * 65536) */
const DEL: usize = (BITS + WORDS * 4 + 7) & ~7;
export function delaysAt(): usize { return DEL; }
export function runAll(until: f64): i32 {
  let k: i32 = 0;
  let n: i32 = 0;
  for (;;) {
    const s = pop(until);
    if (s < 0) break;
    n++;
    const d = <f64>load<i32>(DEL + (<usize>(k++ & 0xffff) << 2));
    post(s, d, (s & 1) != 0 ? 1e6 : 0);
  }
  return n;
}
