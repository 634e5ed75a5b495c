/**
 * Spec checks of `network.switch.discipline` and `disciplineParams` against the queue-discipline
 * registry (net/switch-registry.ts): an unknown name lists the known ones; parameters are checked
 * by the discipline's own zod schema (`QueueDisciplineDefinition.params`, e.g. DRR's
 * `quantumBytes`, net/drr.ts), each problem at its field, as a CC's params are.
 */
import { disciplineRegistry } from '../../net/switch-registry.js';
import type { SwitchConfig } from '../../net/config.js';
import { zodIssuesToSpecIssues } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import { specErrorMap } from './spec.js';

const AT = ['network', 'switch'] as const;

export function checkDiscipline(sw: SwitchConfig, issues: Issues): void {
  const params = sw.disciplineParams;
  if (sw.discipline === undefined) {
    if (params !== undefined) issues.add([...AT, 'disciplineParams'], 'parameters of no discipline: give network.switch.discipline too');
    return;
  }
  const def = disciplineRegistry.find(sw.discipline);
  if (def === undefined) {
    issues.add([...AT, 'discipline'], `unknown queue discipline (${disciplineRegistry.knownText()})`, sw.discipline);
    return;
  }
  if (def.params === undefined) {
    if (params !== undefined && Object.keys(params).length > 0) issues.add([...AT, 'disciplineParams'], `queue discipline ${def.name} takes no parameters`);
    return;
  }
  const r = def.params.safeParse(params ?? {}, { error: specErrorMap });
  if (r.success) return;
  for (const s of zodIssuesToSpecIssues(r.error.issues, { network: { switch: { disciplineParams: params } } }, [...AT, 'disciplineParams'])) issues.list.push(s);
}
