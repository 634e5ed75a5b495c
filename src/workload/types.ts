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
}
