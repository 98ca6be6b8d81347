/**
 * The naming controller's decision (apiextensions-apiserver's NamingConditionController): which
 * of a CRD's requested names it may serve, given the names other CRDs of its group already
 * hold, and the NamesAccepted / Established conditions that follow. kubesim also counts the
 * built-in kinds of the group as taken, so a CRD can never shadow a built-in resource.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { type CrdCondition, findCondition } from './crd-conditions.js';

export type AcceptedNames = Partial<CustomResourceDefinitionNames>;

export interface NamingDecision {
  acceptedNames: AcceptedNames;
  namesAccepted: CrdCondition;
  established: CrdCondition;
}

/** TakenNames are the resource names (plural, singular, short) and kinds (kind, listKind)
 * already served in a group. */
export interface TakenNames {
  resources: Set<string>;
  kinds: Set<string>;
}

/** takenNames collects what the other CRDs of `group` accepted and what built-ins serve there. */
export function takenNames(group: string, others: readonly CustomResourceDefinition[], builtins: readonly ResourceDefinition[]): TakenNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of others) {
    if (other.spec.group !== group) continue;
    const names = other.status?.acceptedNames ?? {};
    for (const name of [names.plural, names.singular, ...(names.shortNames ?? [])]) if (name) resources.add(name);
    for (const kind of [names.kind, names.listKind]) if (kind) kinds.add(kind);
  }
  for (const def of builtins) {
    if (def.group !== group) continue;
    for (const name of [def.plural, def.singular, ...def.shortNames]) resources.add(name);
    kinds.add(def.kind).add(`${def.kind}List`);
  }
  return { resources, kinds };
}

/** namesSettled: the requested names are exactly the accepted ones (nothing to decide). */
export function namesSettled(crd: CustomResourceDefinition): boolean {
  return deepEqual(normalize(crd.spec.names), normalize(crd.status?.acceptedNames ?? {}));
}

function normalize(names: AcceptedNames): AcceptedNames {
  const out: AcceptedNames = {};
  for (const [key, value] of Object.entries(names))
    if (value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)) (out as Record<string, unknown>)[key] = value;
  return out;
}

/** decideNames is calculateNamesAndConditions: each requested name is taken when it is
 * already ours or free; a conflict keeps the old accepted name and sets NamesAccepted False. */
export function decideNames(crd: CustomResourceDefinition, taken: TakenNames): NamingDecision {
  const requested = crd.spec.names;
  const accepted = crd.status?.acceptedNames ?? {};
  const next: AcceptedNames = { ...accepted };
  let conflict: { reason: string; message: string } | undefined;
  const claim = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string) => {
    const wanted = requested[field];
    const problem = inUse(wanted, accepted[field], used);
    if (problem) conflict = { reason, message: problem };
    else if (wanted !== undefined) next[field] = wanted;
  };
  claim('plural', taken.resources, 'PluralConflict');
  claim('singular', taken.resources, 'SingularConflict');
  if (!deepEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const problems = (requested.shortNames ?? [])
      .filter((s) => !(accepted.shortNames ?? []).includes(s))
      .map((s) => inUse(s, undefined, taken.resources))
      .filter((p): p is string => !!p);
    if (problems.length > 0) conflict = { reason: 'ShortNamesConflict', message: problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]` };
    else setOrDelete(next, 'shortNames', requested.shortNames);
  }
  claim('kind', taken.kinds, 'KindConflict');
  claim('listKind', taken.kinds, 'ListKindConflict');
  setOrDelete(next, 'categories', requested.categories);
  const namesAccepted: CrdCondition = conflict
    ? { type: 'NamesAccepted', status: 'False', ...conflict }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  return { acceptedNames: next, namesAccepted, established: establishedAfterNaming(crd, namesAccepted) };
}

/** establishedAfterNaming: Established stays as it is once True; before that it is False,
 * "Installing" once the names are accepted (the establisher then sets it True). */
function establishedAfterNaming(crd: CustomResourceDefinition, namesAccepted: CrdCondition): CrdCondition {
  const old = findCondition(crd, 'Established');
  if (old?.status === 'True') return { type: 'Established', status: 'True', reason: old.reason, message: old.message };
  if (namesAccepted.status === 'True') return { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  if (old) return { type: 'Established', status: old.status, reason: old.reason, message: old.message };
  return { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
}

function inUse(wanted: string | undefined, accepted: string | undefined, used: Set<string>): string | undefined {
  if (wanted === accepted || wanted === undefined || !used.has(wanted)) return undefined;
  return `"${wanted}" is already in use`;
}

function setOrDelete(names: AcceptedNames, field: 'shortNames' | 'categories', value: string[] | undefined): void {
  if (value && value.length > 0) names[field] = value;
  else delete names[field];
}
