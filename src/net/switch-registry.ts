/**
 * The switch's plug-in registries (`Registry`, engine/registry.ts): dequeue policies
 * (dequeue-policies.ts), admission policies (admission.ts) and queue-service disciplines
 * (queue-discipline.ts, drr.ts), by name. A built-in one = one new file in src/net + one line
 * in its list here; a user's own, in their own file, registers itself from a plug-in module
 * with `registerAdmissionPolicy` / `registerDequeuePolicy` / `registerQueueDiscipline`
 * (docs/extending.md), as a test or an embedding program may. Which dequeue and admission
 * policies a network runs because of its CC is the needs table (switch-features.ts); a spec
 * adds admission policies and chooses a discipline with `network.switch.admission` /
 * `network.switch.discipline` (and `disciplineParams`).
 */
import { Registry } from '../engine/registry.js';
import type { AdmissionPolicyDefinition } from './admission.js';
import { intDequeue, mpdDequeue, redDequeue, tcdDequeue, type DequeuePolicyDefinition } from './dequeue-policies.js';
import { drrDiscipline } from './drr.js';
import { rrDiscipline, strictDiscipline, type QueueDisciplineDefinition } from './queue-discipline.js';
import { trimAdmission } from './trim.js';

export const dequeuePolicyRegistry = new Registry<DequeuePolicyDefinition>({ kind: 'dequeue policy', key: (d) => d.name });
export const admissionPolicyRegistry = new Registry<AdmissionPolicyDefinition>({ kind: 'admission policy', key: (d) => d.name });
export const disciplineRegistry = new Registry<QueueDisciplineDefinition>({ kind: 'queue discipline', key: (d) => d.name });

for (const d of [redDequeue, tcdDequeue, intDequeue, mpdDequeue]) dequeuePolicyRegistry.register(d);
registerAdmissionPolicy(trimAdmission);
for (const d of [strictDiscipline, rrDiscipline, drrDiscipline as unknown as QueueDisciplineDefinition]) disciplineRegistry.register(d);

/** `source` names where a definition comes from, for messages (a plug-in module's file; default `built-in`). */
export function registerDequeuePolicy(def: DequeuePolicyDefinition, source?: string): void {
  dequeuePolicyRegistry.register(def, source);
}
export function registerAdmissionPolicy<P>(def: AdmissionPolicyDefinition<P>, source?: string): void {
  admissionPolicyRegistry.register(def as unknown as AdmissionPolicyDefinition, source);
}
export function registerQueueDiscipline<P>(def: QueueDisciplineDefinition<P>, source?: string): void {
  disciplineRegistry.register(def as unknown as QueueDisciplineDefinition, source);
}

export function findDequeuePolicy(name: string): DequeuePolicyDefinition {
  return dequeuePolicyRegistry.get(name);
}
export function findAdmissionPolicy(name: string): AdmissionPolicyDefinition {
  return admissionPolicyRegistry.get(name);
}
export function findDiscipline(name: string): QueueDisciplineDefinition {
  return disciplineRegistry.get(name);
}

/** Registered names (diagnostics, spec errors). */
export function admissionPolicyNames(): string[] {
  return admissionPolicyRegistry.names();
}
export function disciplineNames(): string[] {
  return disciplineRegistry.names();
}
