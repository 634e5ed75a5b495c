// A toy AIMD window congestion control, as a ccsim plug-in in your own file
// (docs/extending.md, "Plug-ins in your own files"). A spec loads it with
// `plugins: [./aimd-cc.mjs]` and names it with `cc: aimd`.
//
// The window starts at one base BDP; every ACK grows it by increase x acked / window
// (about `increase` bytes per window of ACKs); an ECN mark, echoed on an ACK or sent
// back as a CNP, cuts it by `decrease`, at most once per window of data
// (the additive-increase / multiplicative-decrease rule of DCTCP and TCP Reno, without
// DCTCP's marked-fraction estimate).

/** @param {import('ccsim').PluginApi} ccsim */
export default function plugin(ccsim) {
  const { z, fields } = ccsim;

  // parameters are a strict zod object with defaults; units in the key or parsed by `fields`
  const params = z
    .object({
      increaseBytes: fields.sizeField({ min: 1, bare: true }).default(1000).describe('window growth per window of ACKs'),
      decrease: z.number().gt(0).lt(1).default(0.5).describe('fraction of the window kept after a mark'),
      minWindowBytes: fields.sizeField({ min: 1, bare: true }).default(1000).describe('the window never goes below this'),
    })
    .strict();

  class Aimd {
    constructor(flow, p) {
      this.f = flow;
      this.p = p;
      this.cwnd = flow.baseBdpBytes;
      // no cut before the data sent up to here is acknowledged (one cut per window)
      this.holdSeq = -1;
    }

    onAck(ack) {
      if (ack.ecnEcho) this.cut(ack.seq);
      else if (ack.newlyAckedBytes > 0) this.cwnd += (this.p.increaseBytes * ack.newlyAckedBytes) / this.cwnd;
      this.f.setCwnd(this.cwnd);
    }

    onCnp() {
      this.cut(this.f.sndUna);
      this.f.setCwnd(this.cwnd);
    }

    cut(ackedTo) {
      if (ackedTo <= this.holdSeq) return;
      this.cwnd = Math.max(this.p.minWindowBytes, this.cwnd * this.p.decrease);
      this.holdSeq = this.f.sndNxt;
    }

    traceState(out) {
      out[0] = this.cwnd;
    }
  }

  ccsim.registerCc({
    name: 'aimd',
    description: 'toy AIMD window CC (examples/plugins/aimd-cc.mjs)',
    reference: 'additive increase, multiplicative decrease on ECN marks (DCTCP SIGCOMM 2010 §3 without alpha)',
    params,
    needs: { ecn: true },
    // it reads nothing but its own flow's ACKs: it may run on several threads
    parallel: true,
    dataHeaderBytes: () => 0,
    ackHeaderBytes: () => 0,
    initialCwnd: (flow) => flow.baseBdpBytes,
    create: (flow, p) => new Aimd(flow, p),
    traceFields: ['cwnd_bytes'],
  });
}
