/**
 * NDP (Handley et al., "Re-architecting datacenter networks and stacks for
 * low latency and high performance", SIGCOMM'17), as OSCAR App. C.6 runs it
 * against OSCAR on oversubscribed fabrics. NDP has no sender-side congestion
 * control: its parts live in the network and the transport, and choosing
 * `ndp` turns them on (`network`, applied over the profile; a spec that sets
 * one of those fields otherwise is a spec error naming both):
 *
 * - switches trim (§3.1): a data queue holds `dataQueuePackets` full packets;
 *   beyond that a packet is cut to its header, which joins a header queue
 *   served ahead of data (the `trim` admission policy, net/trim.ts); a header
 *   that finds the header queue (`headerQueueBytes`) full goes back to its
 *   sender (return-to-sender);
 * - every packet is sprayed over the equal-cost paths (§3.1), and the fabric
 *   is lossy (no PFC: trimming replaces it);
 * - the sender starts with `initialWindowPackets` sent at line rate (§3.2;
 *   0 = one base BDP), then sends one packet per PULL; the receiver paces its
 *   PULLs at its link rate from one PULL queue for all its senders (§3.3;
 *   transport/ndp-pull.ts);
 * - the receiver ACKs every packet and NACKs every trimmed header; the sender
 *   resends a NACKed or returned packet on its next PULL (§3.2;
 *   transport/trim-recovery.ts). ACKs, NACKs and PULLs travel ahead of data.
 *
 * Not modelled: NDP's weighted round robin between the header and data
 * queues (headers here are served strictly first), its path penalties, and
 * the receiver's pull priorities between flows (one FIFO PULL queue).
 */
import { z } from 'zod';
import { bytesParam } from '../engine/spec-fields.js';
import type { CcDefinition, CcInstance, CcNetworkSetting } from './types.js';

const params = z
  .object({
    initialWindowPackets: z.number().int().nonnegative().default(0).describe('IW: packets a flow sends at line rate before its first PULL (NDP §3.2); 0 = one base BDP'),
    dataQueuePackets: z.number().int().positive().default(8).describe('switch data queue, full-size packets; beyond it arriving packets are trimmed to their header (NDP §3.1: 8)'),
    headerQueueBytes: bytesParam({ allowZero: true, int: true }).default(0).describe('switch header queue, bytes; a header that finds it full returns to its sender (NDP §3.1); 0 = the data queue\'s bytes'),
  })
  .strict();

const instance: CcInstance = { onAck() {} };

export const ndpCc: CcDefinition<typeof params> = {
  name: 'ndp',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'NDP: receiver-pulled, trimming switches, per-packet spraying, no PFC (turns those on)',
  reference: 'Handley et al. SIGCOMM\'17 §3 (NDP); OSCAR App. C.6',
  params,
  needs: { highPriorityAcks: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: () => Infinity,
  create: () => instance,
  network(p, net): CcNetworkSetting[] {
    const t = net.transport;
    const full = t.mtuBytes + t.dataHeaderBytes;
    const thresholdBytes = p.dataQueuePackets * full;
    return [
      { path: ['switch', 'pfcEnabled'], value: false, why: 'NDP runs without PFC: trimming replaces it (NDP §3.1)' },
      { path: ['switch', 'loadBalancing'], value: 'spray', why: 'NDP sprays every packet over all paths (NDP §3.1)' },
      { path: ['transport', 'retxMode'], value: 'trim', why: 'NDP learns losses from trimmed headers (NDP §3.2)' },
      { path: ['transport', 'sendDriver'], value: 'ndpPull', why: 'NDP senders send on PULLs after the first window (NDP §3.2-3.3)' },
      { path: ['transport', 'grantWindowBytes'], value: p.initialWindowPackets * t.mtuBytes, why: 'cc.params.initialWindowPackets sets it' },
      { path: ['transport', 'ackEvery'], value: 1, why: 'NDP ACKs every packet' },
      {
        path: ['switch', 'admission'],
        value: { name: 'trim', params: { thresholdBytes, headerQueueBytes: p.headerQueueBytes > 0 ? p.headerQueueBytes : thresholdBytes } },
        why: 'NDP switches trim (NDP §3.1)',
        append: true,
      },
    ];
  },
};
