/**
 * Packets are fields, not bytes (docs/architecture.md rule 5), kept as a struct of
 * arrays: a packet is an integer id into a `PacketStore`. The per-hop fields
 * live in one 32-byte record of an Int32Array (type, priority and flag bits,
 * destination, wire size, ECMP hash, the control-frame queue link); a switch
 * hop reads copies of them from the ports' ring entries (port.ts) and touches
 * the record only to mark it. The endpoint-only numbers (sequence, send time, in-flight bytes, receiver echo)
 * sit in a second 48-byte Float64Array record, and INT hops in a third array
 * allocated only when a CC asks for INT. Compared with one object per packet
 * this touches a quarter of the memory per hop, which is what limits large
 * fabrics with deep queues. Ids are recycled through a free list; nothing is
 * allocated per packet once the store has grown to the peak packet count.
 *
 * `size` is the wire size; headers are never serialized.
 */
// Constants this module's own methods use are bound twice, as an own const and as an export,
// because V8 reads an exported binding through a cell at every use (see port.ts).
const HOPS = 5;
/** INT hop slots per packet (HPCC's 5-hop header); cc/types re-exports it for CCs. */
export const INT_MAX_HOPS = HOPS;

/** TCD mark values carried by packets (docs/algorithms.md §5); cc/types re-exports them for CCs. */
export const TCD_NO = 0;
export const TCD_UE = 1;
export const TCD_CE = 2;

export const PKT_DATA = 0;
export const PKT_ACK = 1;
export const PKT_NACK = 2;
export const PKT_CNP = 3;
export const PKT_PFC = 4;

/** No packet (empty queue, end of list). Also bound as this module's own const for its methods (port.ts says why). */
const NO_PACKET = -1;
export const NIL = NO_PACKET;

// Int32 record layout (R32 words per packet)
const R32 = 8;
const F_META = 0;
const F_FLOW = 1;
const F_DST = 2;
const F_SIZE = 3;
const F_HASH = 4;
/**
 * ACK: credit the receiver grants beyond the cumulative sequence, bytes
 * (receiver-driven sending); NACK: the missing packet a selective NACK names,
 * as its first byte / MTU. Written only by the transport modes that read it.
 */
const F_XACK = 5;
/** link of the control-frame (PFC) queue; data queues are rings of entries (port.ts) */
const F_NEXT = 6;
/** data: payload bytes; ACK: data packets covered; PFC: class */
const F_AUX = 7;

// meta bits
const TYPE_MASK = 0x7;
const PRIO_SHIFT = 3;
const PRIO_MASK = 0x7 << PRIO_SHIFT;
export const FLAG_ECT = 1 << 6;
export const FLAG_CE = 1 << 7;
export const FLAG_ECN_ECHO = 1 << 8;
export const FLAG_RETX = 1 << 9;
export const FLAG_PAUSE = 1 << 10;
/** a data packet an admission policy cut to its headers (admission.ts TRIM) */
export const FLAG_TRIM = 1 << 17;
/** a PFC-type frame that is a BFC per-flow pause or resume (bfc.ts): its flow and hash name the flow */
export const FLAG_BFC = 1 << 30;
/** a trimmed header a switch returned toward its sender (admission.ts RETURN, NDP's return-to-sender) */
export const FLAG_RTS = 1 << 18;
const TCD_SHIFT = 11;
const TCD_MASK = 0x3 << TCD_SHIFT;
const INTN_SHIFT = 13;
const INTN_MASK = 0xf << INTN_SHIFT;

/** The type of a packet from its record's meta word (`PacketStore.meta`). */
export function metaType(meta: number): number {
  return meta & TYPE_MASK;
}
/** The priority (traffic class) of a packet from its record's meta word. */
export function metaPrio(meta: number): number {
  return (meta & PRIO_MASK) >> PRIO_SHIFT;
}
/** The TCD mark of a packet from its record's meta word. */
export function metaTcd(meta: number): number {
  return (meta & TCD_MASK) >> TCD_SHIFT;
}

// Float64 record layout
const R64 = 6;
const D_SEQ = 0;
const D_TS = 1;
const D_INFL = 2;
/** ACK: sum of the in-flight stamps of the data packets it covers (coalescing sumInfl) */
const D_SUMINFL = 3;
/** ACK: time the acknowledged data packet reached the receiver (one-way delay) */
const D_RXTS = 4;
/** ACK: value of the CC's receiver hook (CcDefinition.receiverEcho) */
const D_ECHO = 5;

/** INT record layout: [ts × 5 | qlen × 5 | txBytes × 5 | rate × 5 | rxBytes × 5] */
const RINT = 5 * HOPS;
const I_TS = 0;
const I_QLEN = HOPS;
const I_TX = 2 * HOPS;
const I_RATE = 3 * HOPS;
const I_RX = 4 * HOPS;
export const INT_TS = I_TS;
export const INT_QLEN = I_QLEN;
export const INT_TX = I_TX;
export const INT_RATE = I_RATE;
/** bytes ever enqueued at the egress port (PowerTCP's rx-byte INT variant, docs/algorithms.md §3) */
export const INT_RX = I_RX;

/** Doubles of a packet record as `PacketStore.writeRecord` writes it. */
export const RECORD_WORDS = R32 + R64 + RINT + 1;

export class PacketStore {
  i32: Int32Array;
  f64: Float64Array;
  /** INT hop fields, RINT doubles per packet; null until a switch stamps the first hop */
  int: Float64Array | null = null;
  /** Poseidon MPD (whole us) per packet; null until a switch stamps the first one */
  mpdUs: Int32Array | null = null;
  private cap: number;
  private free: Int32Array;
  private freeTop: number;
  /** packets ever allocated (the peak number alive at once) */
  allocated = 0;

  constructor(capacity = 4096) {
    this.cap = capacity;
    this.i32 = new Int32Array(capacity * R32);
    this.f64 = new Float64Array(capacity * R64);
    this.free = new Int32Array(capacity);
    this.freeTop = 0;
  }

  /** A fresh packet of `type` with every field zero. */
  alloc(type: number): number {
    let id: number;
    if (this.freeTop > 0) id = this.free[--this.freeTop]!;
    else {
      if (this.allocated === this.cap) this.grow();
      id = this.allocated++;
    }
    const b = id * R32;
    const a = this.i32;
    a[b + F_META] = type;
    a[b + F_FLOW] = -1;
    a[b + F_DST] = 0;
    a[b + F_SIZE] = 0;
    a[b + F_HASH] = 0;
    a[b + F_NEXT] = NO_PACKET;
    a[b + F_AUX] = 0;
    const d = id * R64;
    this.f64[d + D_SEQ] = 0;
    this.f64[d + D_TS] = 0;
    this.f64[d + D_INFL] = 0;
    this.f64[d + D_SUMINFL] = 0;
    this.f64[d + D_RXTS] = 0;
    this.f64[d + D_ECHO] = 0;
    if (this.mpdUs !== null) this.mpdUs[id] = 0;
    return id;
  }

  release(id: number): void {
    this.free[this.freeTop++] = id;
  }

  /** packets alive now (in queues, on links, held by receivers) */
  get alive(): number {
    return this.allocated - this.freeTop;
  }

  /** 1 for every packet id in use (not free), 0 otherwise: for the rare walks over every live packet (sim/fast-forward.ts); allocates. */
  inUse(): Uint8Array {
    const m = new Uint8Array(this.allocated).fill(1);
    for (let i = 0; i < this.freeTop; i++) m[this.free[i]!] = 0;
    return m;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const i32 = new Int32Array(cap * R32);
    i32.set(this.i32);
    this.i32 = i32;
    const f64 = new Float64Array(cap * R64);
    f64.set(this.f64);
    this.f64 = f64;
    if (this.int !== null) {
      const int = new Float64Array(cap * RINT);
      int.set(this.int);
      this.int = int;
    }
    if (this.mpdUs !== null) {
      const m = new Int32Array(cap);
      m.set(this.mpdUs);
      this.mpdUs = m;
    }
    const free = new Int32Array(cap);
    free.set(this.free.subarray(0, this.freeTop));
    this.free = free;
    this.cap = cap;
  }

  // ---- hot per-hop fields

  /** the meta word (type, priority, flags, TCD mark, INT hop count); see metaType / metaPrio */
  meta(p: number): number {
    return this.i32[p * R32 + F_META]!;
  }
  type(p: number): number {
    return this.i32[p * R32 + F_META]! & TYPE_MASK;
  }
  prio(p: number): number {
    return (this.i32[p * R32 + F_META]! & PRIO_MASK) >> PRIO_SHIFT;
  }
  setPrio(p: number, prio: number): void {
    const i = p * R32 + F_META;
    this.i32[i] = (this.i32[i]! & ~PRIO_MASK) | (prio << PRIO_SHIFT);
  }
  has(p: number, flag: number): boolean {
    return (this.i32[p * R32 + F_META]! & flag) !== 0;
  }
  setFlag(p: number, flag: number, on: boolean): void {
    const i = p * R32 + F_META;
    this.i32[i] = on ? this.i32[i]! | flag : this.i32[i]! & ~flag;
  }
  tcd(p: number): number {
    return (this.i32[p * R32 + F_META]! & TCD_MASK) >> TCD_SHIFT;
  }
  setTcd(p: number, v: number): void {
    const i = p * R32 + F_META;
    this.i32[i] = (this.i32[i]! & ~TCD_MASK) | (v << TCD_SHIFT);
  }
  intN(p: number): number {
    return (this.i32[p * R32 + F_META]! & INTN_MASK) >> INTN_SHIFT;
  }
  private setIntN(p: number, n: number): void {
    const i = p * R32 + F_META;
    this.i32[i] = (this.i32[i]! & ~INTN_MASK) | ((n > 15 ? 15 : n) << INTN_SHIFT);
  }
  flow(p: number): number {
    return this.i32[p * R32 + F_FLOW]!;
  }
  setFlow(p: number, f: number): void {
    this.i32[p * R32 + F_FLOW] = f;
  }
  dst(p: number): number {
    return this.i32[p * R32 + F_DST]!;
  }
  setDst(p: number, d: number): void {
    this.i32[p * R32 + F_DST] = d;
  }
  size(p: number): number {
    return this.i32[p * R32 + F_SIZE]!;
  }
  setSize(p: number, s: number): void {
    this.i32[p * R32 + F_SIZE] = s;
  }
  hash(p: number): number {
    return this.i32[p * R32 + F_HASH]!;
  }
  setHash(p: number, h: number): void {
    this.i32[p * R32 + F_HASH] = h;
  }
  next(p: number): number {
    return this.i32[p * R32 + F_NEXT]!;
  }
  setNext(p: number, n: number): void {
    this.i32[p * R32 + F_NEXT] = n;
  }
  /** data: payload bytes; ACK: data packets covered; PFC: class */
  aux(p: number): number {
    return this.i32[p * R32 + F_AUX]!;
  }
  setAux(p: number, v: number): void {
    this.i32[p * R32 + F_AUX] = v;
  }

  /** ACK: receiver credit beyond its sequence (bytes); selective NACK: index of the missing packet */
  xack(p: number): number {
    return this.i32[p * R32 + F_XACK]!;
  }
  setXack(p: number, v: number): void {
    this.i32[p * R32 + F_XACK] = v;
  }

  // ---- endpoint fields

  /** data: first byte; ACK/NACK: cumulative next expected byte */
  seq(p: number): number {
    return this.f64[p * R64 + D_SEQ]!;
  }
  setSeq(p: number, v: number): void {
    this.f64[p * R64 + D_SEQ] = v;
  }
  /** data: send time (ps); ACK: echoed send time */
  sendTs(p: number): number {
    return this.f64[p * R64 + D_TS]!;
  }
  setSendTs(p: number, v: number): void {
    this.f64[p * R64 + D_TS] = v;
  }
  /** data: sender in-flight bytes at send; ACK: echoed */
  inflight(p: number): number {
    return this.f64[p * R64 + D_INFL]!;
  }
  setInflight(p: number, v: number): void {
    this.f64[p * R64 + D_INFL] = v;
  }
  /** ACK: sum of the in-flight stamps of the data packets it covers */
  sumInflight(p: number): number {
    return this.f64[p * R64 + D_SUMINFL]!;
  }
  setSumInflight(p: number, v: number): void {
    this.f64[p * R64 + D_SUMINFL] = v;
  }
  /** ACK: arrival time (ps) of the acknowledged data packet at the receiver */
  rxTs(p: number): number {
    return this.f64[p * R64 + D_RXTS]!;
  }
  setRxTs(p: number, v: number): void {
    this.f64[p * R64 + D_RXTS] = v;
  }

  /** ACK: value of the CC's receiver hook (CcDefinition.receiverEcho) */
  echo(p: number): number {
    return this.f64[p * R64 + D_ECHO]!;
  }
  setEcho(p: number, v: number): void {
    this.f64[p * R64 + D_ECHO] = v;
  }

  // ---- Poseidon short INT (docs/network-model.md §11.5)

  /** max per-hop queueing delay carried by the packet, whole us (0 if none stamped) */
  mpd(p: number): number {
    return this.mpdUs === null ? 0 : this.mpdUs[p]!;
  }
  /** Raises the packet's MPD to `us` if larger (switch side) or sets it (ACK echo). */
  setMpd(p: number, us: number): void {
    if (this.mpdUs === null) {
      if (us === 0) return;
      this.mpdUs = new Int32Array(this.cap);
    }
    this.mpdUs[p] = us;
  }

  // ---- INT

  /** The INT array (allocated on first use); a packet's hops start at intBase(p). */
  intArray(): Float64Array {
    if (this.int === null) this.int = new Float64Array(this.cap * RINT);
    return this.int;
  }
  intBase(p: number): number {
    return p * RINT;
  }
  /**
   * The hop's fields, by INT_TS ... INT_RX, for `pushIntHopFrom`: a switch
   * writes them here so that none of these doubles crosses a call (V8 boxes
   * a number that is not a small integer at every call it does not inline).
   */
  readonly intHop = new Float64Array(I_RX + 1);
  /** Appends the INT hop in `intHop` (slot = hop count mod 5, as the HPCC header). */
  pushIntHopFrom(p: number): void {
    const h = this.intHop;
    const n = this.intN(p);
    const a = this.intArray();
    const b = p * RINT + (n % HOPS);
    a[b + I_TS] = h[I_TS]!;
    a[b + I_QLEN] = h[I_QLEN]!;
    a[b + I_TX] = h[I_TX]!;
    a[b + I_RATE] = h[I_RATE]!;
    a[b + I_RX] = h[I_RX]!;
    this.setIntN(p, n + 1);
  }
  /**
   * Writes packet `p`'s record (every field: the Int32 and Float64 records, the INT hops,
   * the MPD) as RECORD_WORDS doubles at `out[o]`: a packet crossing to another partition's
   * store (net/crossing.ts). `readRecord` makes a fresh packet from them.
   */
  writeRecord(p: number, out: Float64Array, o: number): void {
    for (let k = 0; k < R32; k++) out[o + k] = this.i32[p * R32 + k]!;
    for (let k = 0; k < R64; k++) out[o + R32 + k] = this.f64[p * R64 + k]!;
    const int = this.int;
    for (let k = 0; k < RINT; k++) out[o + R32 + R64 + k] = int === null ? 0 : int[p * RINT + k]!;
    out[o + R32 + R64 + RINT] = this.mpd(p);
  }
  readRecord(src: Float64Array, o: number): number {
    const p = this.alloc(0);
    for (let k = 0; k < R32; k++) this.i32[p * R32 + k] = src[o + k]!;
    this.i32[p * R32 + F_NEXT] = NO_PACKET;
    for (let k = 0; k < R64; k++) this.f64[p * R64 + k] = src[o + R32 + k]!;
    let anyInt = this.int !== null;
    for (let k = 0; k < RINT && !anyInt; k++) anyInt = src[o + R32 + R64 + k] !== 0;
    if (anyInt) {
      const a = this.intArray();
      for (let k = 0; k < RINT; k++) a[p * RINT + k] = src[o + R32 + R64 + k]!;
    }
    this.setMpd(p, src[o + R32 + R64 + RINT]!);
    return p;
  }

  /** Copies the INT stack of `from` into `to`. */
  copyInt(from: number, to: number): void {
    const n = this.intN(from);
    this.setIntN(to, n);
    if (n === 0) return;
    const a = this.intArray();
    a.copyWithin(to * RINT, from * RINT, from * RINT + RINT);
  }
}
