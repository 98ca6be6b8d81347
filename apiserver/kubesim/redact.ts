/**
 * Secret values never leave the server through kubesim's own views: the history API,
 * `kubesim trace` and `kubesim watch`, and the live view's timeline show that a Secret's value
 * changed, never what it was or became. (The Kubernetes API itself serves Secrets as a real
 * cluster does, to whoever may read them.)
 */
import type { FieldChange } from '../api/kubesim/history.js';

/** The storage resources whose values are secret. */
const SECRET_RESOURCES = new Set(['secrets']);

/** REDACTED stands in for a secret value. */
export const REDACTED = '<redacted>';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** isSecretPath says whether a dotted path of a Secret holds (a copy of) a secret value. */
function isSecretPath(path: string): boolean {
  return (
    path === 'data' || path === 'stringData' || path.startsWith('data.') || path.startsWith('stringData.') || path === `metadata.annotations.${LAST_APPLIED}`
  );
}

/** redactChanges hides the values of secret fields in a diff of a `resource` object, keeping
 * which fields changed (and whether they were added or removed). */
export function redactChanges(resource: string, changes: FieldChange[]): FieldChange[] {
  if (!SECRET_RESOURCES.has(resource)) return changes;
  return changes.map((change) => {
    if (!isSecretPath(change.path)) return change;
    const hidden: FieldChange = { ...change };
    if (change.old !== undefined) hidden.old = REDACTED;
    if (change.new !== undefined) hidden.new = REDACTED;
    return hidden;
  });
}

/** redactObject returns `object` (a `resource` object) with its secret values replaced, or the
 * object itself when it holds none. */
export function redactObject<T extends Record<string, unknown>>(resource: string, object: T): T {
  if (!SECRET_RESOURCES.has(resource)) return object;
  const copy: Record<string, unknown> = { ...object };
  for (const field of ['data', 'stringData']) {
    const values = object[field];
    if (values && typeof values === 'object') copy[field] = Object.fromEntries(Object.keys(values).map((key) => [key, REDACTED]));
  }
  const metadata = object['metadata'] as { annotations?: Record<string, string> } | undefined;
  if (metadata?.annotations?.[LAST_APPLIED] !== undefined) {
    copy['metadata'] = { ...metadata, annotations: { ...metadata.annotations, [LAST_APPLIED]: REDACTED } };
  }
  return copy as T;
}
