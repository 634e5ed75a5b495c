/** One flow to simulate. Host ids are node ids (hosts are nodes 0..H-1). */
export interface FlowSpec {
  src: number;
  dst: number;
  bytes: number;
  /** start time, ps */
  startPs: number;
  /** priority class 0..7; undefined = the profile's data priority */
  prio?: number;
  /** free-form label carried to the FCT rows, e.g. 'background' or 'incast' */
  tag?: string;
  /** UDP ports as another simulator numbered the flow (replays); undefined = the transport's port rule */
  sport?: number;
  dport?: number;
}

/**
 * Flows produced lazily, in start order (equal start times in a fixed order),
 * so that a run with millions of flows never holds them all.
 */
export interface FlowStream {
  /** start time (ps) of the next flow; Infinity when there is none */
  peekStartPs(): number;
  /** removes and returns the next flow (only when peekStartPs() is finite) */
  next(): FlowSpec;
}
