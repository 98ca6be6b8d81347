/**
 * The 409 an unforced server-side apply answers when it would change fields other managers
 * own, worded as kube-apiserver words it (fieldmanager's NewConflictError):
 *
 *   Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas
 *
 *   Apply failed with 2 conflicts: conflicts with "hpa" using apps/v1:
 *   - .spec.replicas
 *   conflicts with "kubectl" with subresource "status":
 *   - .status.x
 *
 * with one `FieldManagerConflict` cause per field.
 */
import { ApiError, type StatusCause } from '../api/api-error.js';
import { type ManagerIdentity, managerId, Operations } from './managed-fields.js';
import type { Conflict } from './ownership.js';
import { compareStrings, pathToString } from './path-element.js';

/** applyConflictError builds the Conflict Status for `conflicts` (at least one). */
export function applyConflictError(conflicts: readonly Conflict[]): ApiError {
  const causes: StatusCause[] = sorted(conflicts).map(({ owner, path }) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(owner)}`,
    field: pathToString(path),
  }));
  return new ApiError('Conflict', 409, conflictMessage(conflicts), { causes });
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only) return `Apply failed with 1 conflict: conflict with ${describeManager(only.owner)}: ${pathToString(only.path)}`;
  const lines: string[] = [];
  let currentId: string | undefined;
  for (const { owner, path } of sorted(conflicts)) {
    const id = managerId(owner);
    if (id !== currentId) lines.push(`conflicts with ${describeManager(owner)}:`);
    currentId = id;
    lines.push(`- ${pathToString(path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** sorted groups conflicts by manager identifier (sorted, as Kubernetes prints them),
 * keeping each manager's paths in the order they were found. */
function sorted(conflicts: readonly Conflict[]): Conflict[] {
  return conflicts
    .map((conflict, index) => ({ conflict, index, id: managerId(conflict.owner) }))
    .sort((a, b) => compareStrings(a.id, b.id) || a.index - b.index)
    .map(({ conflict }) => conflict);
}

/** describeManager is Kubernetes' printManager: `"name"`, with ` with subresource "s"`
 * when there is one, and ` using <apiVersion>` for Update managers. */
export function describeManager(identity: ManagerIdentity): string {
  let text = JSON.stringify(identity.manager);
  if (identity.subresource) text += ` with subresource ${JSON.stringify(identity.subresource)}`;
  if (identity.operation === Operations.Update) text += ` using ${identity.apiVersion}`;
  return text;
}
