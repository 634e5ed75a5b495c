/**
 * Packet trimming at admission (NDP, Handley et al. SIGCOMM'17 §3.1; the
 * `trim` admission policy, admission.ts): each data queue holds at most
 * `thresholdBytes`; a data packet that would take it beyond is cut to its
 * header, which joins the switch's header queue (`SwitchConfig.trimQueue`,
 * urgent at every port: served ahead of data and never paused; Port
 * `urgentMask`). The header queue holds at most `headerQueueBytes`; a
 * packet whose header finds it full is returned to its sender (NDP's
 * return-to-sender, verdict RETURN), and control packets of the header class
 * (NDP's ACK, NACK and PULL travel there) that find it full are dropped.
 *
 * Costs nothing where it is not installed: only a switch with admission
 * policies runs any (its `AdmissionGate`). Per packet it reads two queue
 * counters and, to trim, the packet's payload word; it allocates nothing.
 */
import { z } from 'zod';
import { sizeField } from '../engine/spec-fields.js';
import * as admission from './admission.js';
import type { AdmissionContext, AdmissionPolicy, AdmissionPolicyDefinition } from './admission.js';
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { Port } from './port.js';

const { ADMIT, DROP, RETURN, TRIM } = admission;
const { FLAG_TRIM, PKT_DATA, metaType } = packet;

/** The policy's parameters (spec `network.switch.admission: [{ name: trim, params }]`, or set by `ndp`). */
export interface TrimParams {
  /** a data queue's bytes beyond which arriving data packets are trimmed (NDP: 8 full-size packets) */
  thresholdBytes: number;
  /** header queue capacity, bytes; beyond it headers go back to their sender */
  headerQueueBytes: number;
}

/** The parameters with their units (a size: bytes, or text such as "12KB"; engine/spec-fields.ts). */
const trimParams = z
  .object({
    thresholdBytes: sizeField({ bare: true }).describe("size (bytes, or text such as \"12KB\"): a data queue's bytes beyond which arriving data packets are trimmed (NDP: 8 full-size packets)"),
    headerQueueBytes: sizeField({ bare: true }).describe('size (bytes, or text such as "12KB"): header queue capacity; beyond it headers go back to their sender'),
  })
  .strict();

export class TrimAdmission implements AdmissionPolicy {
  readonly name = 'trim';

  constructor(
    private readonly pk: PacketStore,
    private readonly threshold: number,
    private readonly headerCap: number,
    /** the header queue (`SwitchConfig.trimQueue`) */
    private readonly hq: number,
  ) {}

  admit(pkt: number, out: Port, q: number, size: number, meta: number): number {
    const hq = this.hq;
    if (q === hq || (meta & FLAG_TRIM) !== 0) {
      // a header trimmed upstream, or a control packet of the header class
      if (out.queueBytes(hq) + size <= this.headerCap) return ADMIT;
      return metaType(meta) === PKT_DATA ? RETURN : DROP;
    }
    if (metaType(meta) !== PKT_DATA || out.queueBytes(q) + size <= this.threshold) return ADMIT;
    const hdr = size - this.pk.aux(pkt);
    return out.queueBytes(hq) + hdr <= this.headerCap ? TRIM : RETURN;
  }
}

export const trimAdmission: AdmissionPolicyDefinition<TrimParams> = {
  name: 'trim',
  description: "NDP's trimming: a data packet beyond the threshold loses its payload; its header joins the header queue, or goes back to its sender when that is full (NDP §3.1)",
  trims: true,
  params: trimParams,
  create(ctx: AdmissionContext, params: TrimParams): AdmissionPolicy {
    return new TrimAdmission(ctx.pk, params.thresholdBytes, params.headerQueueBytes, ctx.cfg.trimQueue ?? 7);
  },
};
