/**
 * A closed-loop workload written the way docs/extending.md ("Adding a
 * workload") tells a contributor to: one definition in test code, registered
 * with one line, used from a spec like a built-in type. A client sends a
 * request to a server; the server's response starts when the request has
 * arrived, and the client's next request starts when the response has
 * arrived (think time between them). The test checks the closed loop in the
 * FCT rows, the stop rule (the run ends when the driver is done), ids,
 * determinism, and that the entry's fields are validated with spec errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specErrorOf } from './helpers/specs.js';
import { z } from 'zod';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { durationField, hostId, posInt, sizeField } from '../src/engine/spec-fields.js';
import { simulate } from '../src/sim/simulate.js';
import type { FinishedFlow, FlowInjector, WorkloadDriver } from '../src/workload/driver.js';
import type { WorkloadDefinition } from '../src/workload/plugin.js';
import { registerWorkload } from '../src/workload/registry.js';

const schema = z
  .object({
    type: z.literal('requestResponse'),
    client: hostId,
    server: hostId,
    request: sizeField(),
    response: sizeField(),
    count: posInt,
    think: durationField().default(0),
  })
  .strict();
type Entry = z.output<typeof schema>;

/** request i is flow 2i of the driver's flows, its response 2i + 1; the next request follows the response */
class RequestResponse implements WorkloadDriver {
  private sent = 0;
  private waitingFor = -1;
  private phase: 'request' | 'response' = 'request';
  constructor(
    private readonly client: number,
    private readonly server: number,
    private readonly e: Entry,
  ) {}
  begin(inj: FlowInjector): void {
    this.request(inj);
  }
  private request(inj: FlowInjector): void {
    this.waitingFor = inj.start({ src: this.client, dst: this.server, bytes: this.e.request, tag: 'request' });
    this.phase = 'request';
    this.sent++;
  }
  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    if (f.id !== this.waitingFor) return;
    if (this.phase === 'request') {
      this.waitingFor = inj.start({ src: this.server, dst: this.client, bytes: this.e.response, tag: 'response' });
      this.phase = 'response';
    } else if (this.sent < this.e.count) {
      if (this.e.think === 0) this.request(inj);
      else {
        this.waitingFor = -1;
        inj.wakeAt(inj.nowPs + this.e.think, 0);
      }
    } else this.waitingFor = -1;
  }
  onWake(_token: number, inj: FlowInjector): void {
    this.request(inj);
  }
  done(): boolean {
    return this.sent === this.e.count && this.waitingFor === -1;
  }
}

const requestResponse: WorkloadDefinition<Entry> = {
  type: 'requestResponse',
  summary: 'a client and a server in lock step (test workload)',
  schema,
  startTimes: () => [],
  prepare(e, ctx) {
    const client = ctx.host(e.client, ['client']);
    const server = ctx.host(e.server, ['server']);
    if (e.client === e.server) ctx.error(['server'], 'same host as client');
    return {
      estimate: { flows: 2 * e.count, bytes: e.count * (e.request + e.response), receivers: [client, server] },
      tags: ['request', 'response'],
      driver: () => new RequestResponse(client, server, e),
    };
  },
};

registerWorkload(requestResponse);

function spec(workload: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { name: 'rr', topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: '1us' }, cc: { name: 'none' }, workload, ...extra };
}

const rr = { type: 'requestResponse', client: 0, server: 3, request: '2KB', response: '64KB', count: 5 };

test('registering a workload type makes it a spec type with its own field checks', () => {
  assert.throws(() => registerWorkload(requestResponse), /already registered/);
  const bad = (w: Record<string, unknown>): string => specErrorOf(() => resolveSpec(parseSpec(spec([w])), '.'));
  assert.match(bad({ ...rr, count: 0 }), /workload\[0\]\.count/);
  assert.match(bad({ ...rr, colour: 'red' }), /workload\[0\].*colour/);
  assert.match(bad({ ...rr, server: 9 }), /workload\[0\]\.server: 9 .*not a host/);
  assert.match(bad({ ...rr, server: 0 }), /workload\[0\]\.server: 0 .*same host as client/);
});

test('a closed-loop request-response workload: each flow starts when the one before it arrived', () => {
  const input = resolveSpec(parseSpec(spec([rr])), '.');
  assert.equal(input.flows.length, 0);
  assert.equal(input.drivers?.length, 1);
  const out = simulate(input);
  assert.equal(out.fct.length, 10);
  assert.equal(out.unfinished.length, 0);
  const rows = [...out.fct].sort((a, b) => a.id - b.id);
  rows.forEach((r, i) => {
    assert.equal(r.id, i);
    assert.equal(r.tag, i % 2 === 0 ? 'request' : 'response');
    assert.equal(r.src, i % 2 === 0 ? 0 : 3);
    assert.equal(r.bytes, i % 2 === 0 ? 2000 : 64000);
    // closed loop: a flow starts exactly when the previous one finished
    assert.equal(r.startPs, i === 0 ? 0 : rows[i - 1]!.finishPs);
  });
  // the run ends with the driver: at the last response's finish
  assert.equal(out.endPs, rows[9]!.finishPs);
});

test('think time between a response and the next request; open-loop flows keep their ids', () => {
  const background = { type: 'flows', flows: [{ src: 1, dst: 2, size: '1MB', start: 0 }, { src: 2, dst: 1, size: '1MB', start: '5us' }] };
  const input = resolveSpec(parseSpec(spec([background, { ...rr, count: 3, think: '20us' }])), '.');
  assert.equal(input.flows.length, 2);
  const out = simulate(input);
  assert.equal(out.fct.length, 8);
  const rows = [...out.fct].sort((a, b) => a.id - b.id);
  // the listed flow at 0 keeps id 0 (drivers begin after the flows listed for time 0); the one at 5 us starts
  // after the first request and response were injected
  assert.equal(rows[0]!.src, 1);
  assert.equal(rows[0]!.startPs, 0);
  const mine = rows.filter((r) => r.tag === 'request' || r.tag === 'response');
  assert.equal(mine.length, 6);
  for (let i = 1; i < mine.length; i++) {
    const gap = mine[i]!.startPs - mine[i - 1]!.finishPs;
    assert.equal(gap, mine[i]!.tag === 'request' ? 20e6 : 0);
  }
  // same spec, same seed: the same rows
  assert.deepEqual(simulate(resolveSpec(parseSpec(spec([background, { ...rr, count: 3, think: '20us' }])), '.')).fct, out.fct);
});

test('a hard stop ends a closed-loop run that is not done', () => {
  const input = resolveSpec(parseSpec(spec([{ ...rr, count: 1000 }], { stop: { at: '50us' } })), '.');
  const out = simulate(input);
  assert.equal(out.endPs, 50e6);
  assert.ok(out.fct.length > 2 && out.fct.length < 2000, `${out.fct.length} flows finished`);
});
