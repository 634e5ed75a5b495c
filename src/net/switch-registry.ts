/**
 * The switch's plug-in registries: dequeue policies (dequeue-policies.ts),
 * admission policies (admission.ts) and queue-service disciplines
 * (queue-discipline.ts), by name. Adding one = one new file in src/net + one
 * line in its list here; a test or an embedding program registers its own at
 * run time with `registerAdmissionPolicy` / `registerDequeuePolicy` /
 * `registerDiscipline` (the same one line). Which dequeue and admission
 * policies a network runs because of its CC is the needs table
 * (switch-features.ts); a spec adds admission policies and chooses a
 * discipline with `network.switch.admission` / `network.switch.discipline`.
 */
import type { AdmissionPolicyDefinition } from './admission.js';
import { intDequeue, mpdDequeue, redDequeue, tcdDequeue, type DequeuePolicyDefinition } from './dequeue-policies.js';
import { rrDiscipline, strictDiscipline, type QueueDisciplineDefinition } from './queue-discipline.js';
import { trimAdmission } from './trim.js';

const DEQUEUE_POLICIES: DequeuePolicyDefinition[] = [redDequeue, tcdDequeue, intDequeue, mpdDequeue];

const ADMISSION_POLICIES: AdmissionPolicyDefinition[] = [trimAdmission];

const DISCIPLINES: QueueDisciplineDefinition[] = [strictDiscipline, rrDiscipline];

function add<T extends { readonly name: string }>(list: T[], kind: string, def: T): void {
  if (list.some((d) => d.name === def.name)) throw new Error(`${kind} "${def.name}" is already registered`);
  list.push(def);
}

function find<T extends { readonly name: string }>(list: readonly T[], kind: string, name: string): T {
  const d = list.find((x) => x.name === name);
  if (d === undefined) throw new Error(`unknown ${kind} "${name}" (known: ${list.map((x) => x.name).join(', ') || 'none'})`);
  return d;
}

export function registerDequeuePolicy(def: DequeuePolicyDefinition): void {
  add(DEQUEUE_POLICIES, 'dequeue policy', def);
}
export function registerAdmissionPolicy(def: AdmissionPolicyDefinition): void {
  add(ADMISSION_POLICIES, 'admission policy', def);
}
export function registerDiscipline(def: QueueDisciplineDefinition): void {
  add(DISCIPLINES, 'queue discipline', def);
}

export function findDequeuePolicy(name: string): DequeuePolicyDefinition {
  return find(DEQUEUE_POLICIES, 'dequeue policy', name);
}
export function findAdmissionPolicy(name: string): AdmissionPolicyDefinition {
  return find(ADMISSION_POLICIES, 'admission policy', name);
}
export function findDiscipline(name: string): QueueDisciplineDefinition {
  return find(DISCIPLINES, 'queue discipline', name);
}

/** Registered names (diagnostics, spec errors). */
export function admissionPolicyNames(): string[] {
  return ADMISSION_POLICIES.map((d) => d.name);
}
export function disciplineNames(): string[] {
  return DISCIPLINES.map((d) => d.name);
}
