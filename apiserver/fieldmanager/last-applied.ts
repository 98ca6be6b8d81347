/**
 * The bridge between client-side and server-side `kubectl apply`, as kube-apiserver builds
 * it for the field manager named `kubectl` (kubectl's default for --server-side):
 *
 * - conflicts on fields listed in the object's `kubectl.kubernetes.io/last-applied-configuration`
 *   annotation are forgiven: those fields were applied with kubectl before, so taking them
 *   over is the upgrade the user asked for (lastAppliedManager);
 * - when the object carries that annotation, a server-side apply by `kubectl` rewrites it to
 *   the newly applied configuration, so a later client-side apply diffs against what is
 *   really applied (lastAppliedUpdater).
 *
 * Any other field manager opts out of both.
 */
import type { KubeObject } from '../api/resource-definition.js';
import type { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { toFieldSet } from './to-field-set.js';
import { isJsonMap, type JsonMap } from './values.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The manager kubectl uses for `apply --server-side`. */
export const KUBECTL_MANAGER = 'kubectl';

/** lastAppliedFields is the field set of the object's last-applied configuration, or
 * undefined when it has none (or an unreadable one). */
export function lastAppliedFields(object: KubeObject | undefined, type: FieldType): FieldSet | undefined {
  const text = object?.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonMap(parsed) ? toFieldSet(parsed, type) : undefined;
  } catch {
    return undefined;
  }
}

/** syncLastApplied rewrites the annotation on `next`, when it has one, to `config` (without
 * the annotation itself), encoded as Kubernetes encodes it: keys sorted, a trailing newline. */
export function syncLastApplied(next: KubeObject, config: JsonMap): void {
  const annotations = next.metadata.annotations;
  if (annotations?.[LAST_APPLIED_ANNOTATION] === undefined) return;
  const copy = structuredClone(config);
  const metadata = copy['metadata'];
  const configAnnotations = isJsonMap(metadata) ? metadata['annotations'] : undefined;
  if (isJsonMap(configAnnotations)) delete configAnnotations[LAST_APPLIED_ANNOTATION];
  annotations[LAST_APPLIED_ANNOTATION] = `${JSON.stringify(sortKeys(copy))}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonMap(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
