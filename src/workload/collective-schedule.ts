/**
 * Collective schedules from a file, for `type: collective` with `schedule:`
 * (issue 25): a user brings the steps of a collective produced by another
 * tool (a collective library's algorithm, a planner) and ccsim runs them
 * closed loop. Format (YAML or JSON; docs/guide.md, "Collective schedules"):
 *
 *   ranks: 4                 # the hosts the schedule is written for
 *   steps:
 *     - id: a0               # unique (string or number)
 *       after: []            # steps (listed earlier) whose flows must all have finished
 *       flows:               # what each rank sends when the step starts
 *         - { src: 0, dst: 1, bytes: 1MB }
 *
 * Ranks are positions in the entry's `hosts` list (or in each of its
 * `groups`: every group runs its own copy). A step starts when all the steps
 * it names in `after` have finished; a step finishes when all its flows have
 * (a step without flows finishes as it starts). An iteration is the whole
 * schedule; the next starts `compute` after its last step.
 */
import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { sizeField } from '../engine/spec-fields.js';
import type { FinishedFlow, FlowInjector, JobRecord, WorkloadDriver } from './driver.js';

const stepId = z.union([z.string().min(1), z.number().int()]);

const scheduleSchema = z
  .object({
    ranks: z.number().int().min(2),
    steps: z
      .array(
        z
          .object({
            id: stepId,
            after: z.array(stepId).default([]),
            flows: z.array(z.object({ src: z.number().int().min(0), dst: z.number().int().min(0), bytes: sizeField({ bare: true }) }).strict()).default([]),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

/** A schedule, checked: steps in file order, dependencies as earlier step indices. */
export interface Schedule {
  ranks: number;
  /** per step: its flows (rank, rank, bytes) */
  flows: { src: number; dst: number; bytes: number }[][];
  /** per step: the indices of the steps it waits for */
  after: number[][];
}

/** Parses and checks a schedule file's text; problems are [field path, message] pairs. */
export function parseSchedule(text: string): Schedule | { problems: [string, string][] } {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    return { problems: [['', `not YAML or JSON: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`]] };
  }
  const r = scheduleSchema.safeParse(raw);
  if (!r.success) return { problems: r.error.issues.map((i) => [i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, ''), i.message]) };
  const s = r.data;
  const problems: [string, string][] = [];
  const index = new Map<string, number>();
  const after: number[][] = [];
  s.steps.forEach((st, k) => {
    const key = String(st.id);
    if (index.has(key)) problems.push([`steps[${k}].id`, `${JSON.stringify(st.id)} is used twice`]);
    after.push(
      st.after.map((d, m) => {
        const at = index.get(String(d));
        if (at === undefined) problems.push([`steps[${k}].after[${m}]`, `${JSON.stringify(d)} is not a step listed before this one`]);
        return at ?? 0;
      }),
    );
    index.set(key, k);
    st.flows.forEach((f, m) => {
      if (f.src >= s.ranks) problems.push([`steps[${k}].flows[${m}].src`, `${f.src} is not a rank (ranks: ${s.ranks})`]);
      if (f.dst >= s.ranks) problems.push([`steps[${k}].flows[${m}].dst`, `${f.dst} is not a rank (ranks: ${s.ranks})`]);
      if (f.src === f.dst) problems.push([`steps[${k}].flows[${m}]`, `sends from rank ${f.src} to itself`]);
    });
  });
  if (problems.length > 0) return { problems };
  return { ranks: s.ranks, flows: s.steps.map((st) => st.flows), after };
}

/** Flows and payload bytes of one iteration of a schedule. */
export function scheduleSize(s: Schedule): { flows: number; bytes: number } {
  let flows = 0;
  let bytes = 0;
  for (const st of s.flows) {
    flows += st.length;
    for (const f of st) bytes += f.bytes;
  }
  return { flows, bytes };
}

export interface ScheduleRunOptions {
  iterations: number;
  compute: number;
  start: number;
  tag: string;
}

/** Runs a schedule on every group: each group is a job (jobs.csv), its ranks the group's hosts in order. */
export class ScheduleDriver implements WorkloadDriver {
  private readonly dependents: number[][];
  private readonly waitsFor: Int32Array;
  private readonly perIterationBytes: number;
  /** per job: per step, dependencies and flows outstanding */
  private readonly depsLeft: Int32Array[];
  private readonly flowsLeft: Int32Array[];
  private readonly stepsDone: Int32Array;
  private readonly iteration: Int32Array;
  private readonly iterStart: Float64Array;
  private readonly inFlight = new Map<number, number>();
  private readonly records: JobRecord[] = [];
  private active: number;

  constructor(
    private readonly s: Schedule,
    private readonly groups: readonly (readonly number[])[],
    private readonly o: ScheduleRunOptions,
  ) {
    const n = s.flows.length;
    this.dependents = Array.from({ length: n }, () => []);
    this.waitsFor = new Int32Array(n);
    s.after.forEach((deps, k) => {
      this.waitsFor[k] = deps.length;
      for (const d of deps) this.dependents[d]!.push(k);
    });
    this.perIterationBytes = scheduleSize(s).bytes;
    this.depsLeft = groups.map(() => new Int32Array(n));
    this.flowsLeft = groups.map(() => new Int32Array(n));
    this.stepsDone = new Int32Array(groups.length);
    this.iteration = new Int32Array(groups.length);
    this.iterStart = new Float64Array(groups.length);
    this.active = groups.length;
  }

  private name(j: number): string {
    return this.groups.length === 1 ? this.o.tag : `${this.o.tag}/${j}`;
  }

  begin(inj: FlowInjector): void {
    for (let j = 0; j < this.groups.length; j++) {
      if (this.o.start === 0) this.startIteration(j, inj);
      else inj.wakeAt(this.o.start, j);
    }
  }

  onWake(token: number, inj: FlowInjector): void {
    this.startIteration(token, inj);
  }

  private startIteration(j: number, inj: FlowInjector): void {
    this.iterStart[j] = inj.nowPs;
    this.stepsDone[j] = 0;
    this.depsLeft[j]!.set(this.waitsFor);
    const ready: number[] = [];
    for (let k = 0; k < this.waitsFor.length; k++) if (this.waitsFor[k] === 0) ready.push(k);
    this.run(j, ready, inj);
  }

  /** Starts the ready steps; steps without flows finish at once and may ready others. */
  private run(j: number, ready: number[], inj: FlowInjector): void {
    const hosts = this.groups[j]!;
    const left = this.flowsLeft[j]!;
    while (ready.length > 0) {
      const k = ready.pop()!;
      const flows = this.s.flows[k]!;
      left[k] = flows.length;
      if (flows.length === 0) {
        if (this.finishStep(j, k, ready, inj)) return;
        continue;
      }
      for (const f of flows) {
        const id = inj.start({ src: hosts[f.src]!, dst: hosts[f.dst]!, bytes: f.bytes, tag: this.o.tag });
        this.inFlight.set(id, j * 2 ** 20 + k);
      }
    }
  }

  /** Step `k` of job `j` finished: ready its dependents; true when that ended the iteration. */
  private finishStep(j: number, k: number, ready: number[], inj: FlowInjector): boolean {
    const deps = this.depsLeft[j]!;
    for (const d of this.dependents[k]!) if (--deps[d]! === 0) ready.push(d);
    if (++this.stepsDone[j]! < this.waitsFor.length) return false;
    const it = this.iteration[j]!;
    this.records.push({ job: this.name(j), iteration: it, startPs: this.iterStart[j]!, finishPs: inj.nowPs, bytes: this.perIterationBytes });
    this.iteration[j] = it + 1;
    if (it + 1 >= this.o.iterations) this.active--;
    else if (this.o.compute === 0) this.startIteration(j, inj);
    else inj.wakeAt(inj.nowPs + this.o.compute, j);
    return true;
  }

  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    const key = this.inFlight.get(f.id);
    if (key === undefined) return;
    this.inFlight.delete(f.id);
    const j = Math.floor(key / 2 ** 20);
    const k = key - j * 2 ** 20;
    if (--this.flowsLeft[j]![k]! > 0) return;
    const ready: number[] = [];
    if (!this.finishStep(j, k, ready, inj)) this.run(j, ready, inj);
  }

  done(): boolean {
    return this.active === 0;
  }

  report(): JobRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}
