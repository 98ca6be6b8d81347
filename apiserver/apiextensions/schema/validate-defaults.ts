/**
 * Checks of `default` values in a CRD schema (kube-apiserver's ValidateDefaults): a default
 * must be pruned (no fields its schema does not specify), decode and validate as embedded
 * TypeMeta/ObjectMeta where it is one, and validate against its own schema (errors under
 * `<path>.default`). A default inside resource metadata is checked in a surrounding object,
 * whose metadata must then be valid. Defaults under additionalProperties are not visited.
 */
import { describeFieldError } from '../../api/api-error.js';
import { deepEqual } from '../../api/deep-equal.js';
import type { FieldError } from '../../api/resource-definition.js';
import { invalid } from '../../api/validation.js';
import { coerceError, validateEmbeddedResources } from './embedded-resource.js';
import { child, key } from './field-errors.js';
import { validateAgainstSchema } from './openapi-validator.js';
import { pruneStructural } from './prune.js';
import { deepCopyJson, hasDefault, isEmbeddedResource, itemsSchema, type JSONSchemaProps, type JsonObject, META_FIELDS } from './types.js';

/** Step locates a default inside its resource: a field name, or a list item. */
type Step = { field: string } | 'item';

interface Scope {
  /** The schema of the resource (root or embedded) the node belongs to. */
  resource: JSONSchemaProps;
  /** The steps from that resource to the node. */
  steps: Step[];
  /** The node is (inside) the resource's apiVersion, kind or metadata. */
  insideMeta: boolean;
}

/** validateDefaults checks every default in a root schema at `path`. */
export function validateDefaults(schema: JSONSchemaProps, path: string): FieldError[] {
  const root = isEmbeddedResource(schema) ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  return visit(root, path, { resource: root, steps: [], insideMeta: false });
}

function visit(s: JSONSchemaProps, path: string, scope: Scope): FieldError[] {
  const here = isEmbeddedResource(s) ? { resource: s, steps: [], insideMeta: false } : scope;
  const errors = hasDefault(s) ? (here.insideMeta ? checkMetaDefault(s, path, here) : checkDefault(s, path)) : [];
  const items = itemsSchema(s);
  if (items) errors.push(...visit(items, child(path, 'items'), { ...here, steps: [...here.steps, 'item'] }));
  for (const [k, property] of Object.entries(s.properties ?? {})) {
    const insideMeta = here.insideMeta || (isEmbeddedResource(s) && META_FIELDS.has(k));
    errors.push(...visit(property, key(child(path, 'properties'), k), { resource: here.resource, steps: [...here.steps, { field: k }], insideMeta }));
  }
  return errors;
}

function checkDefault(s: JSONSchemaProps, path: string): FieldError[] {
  const at = child(path, 'default');
  const errors: FieldError[] = [];
  const pruned = deepCopyJson(s.default);
  pruneStructural(pruned, s, isEmbeddedResource(s));
  if (!deepEqual(pruned, s.default)) errors.push(invalid(at, s.default, 'must not have unknown fields'));
  const coerce = coerceError(s, s.default, at, isEmbeddedResource(s));
  if (coerce) return [...errors, coerce];
  const meta = validateEmbeddedResources(s, s.default, at, isEmbeddedResource(s));
  if (meta.length > 0) return [...errors, ...meta];
  return [...errors, ...validateAgainstSchema(s, s.default, at)];
}

/** checkMetaDefault validates a default of (a part of) apiVersion, kind or metadata inside the
 * object it would produce. */
function checkMetaDefault(s: JSONSchemaProps, path: string, scope: Scope): FieldError[] {
  const at = child(path, 'default');
  const object = surroundingObject(deepCopyJson(s.default), scope.steps);
  const coerce = coerceError(scope.resource, object, '', true);
  if (coerce) return [invalid(at, s.default, `must result in valid metadata: ${render([coerce])}`)];
  const meta = validateEmbeddedResources(scope.resource, object, '', true);
  if (meta.length > 0) return [invalid(at, s.default, `must result in valid metadata: ${render(meta)}`)];
  return validateAgainstSchema(s, s.default, at);
}

/** surroundingObject wraps a value into the resource it sits in, with a placeholder TypeMeta. */
function surroundingObject(value: unknown, steps: readonly Step[]): JsonObject {
  const wrapped = steps.reduceRight<unknown>((inner, step) => (step === 'item' ? [inner] : { [step.field]: inner }), value);
  const object = (typeof wrapped === 'object' && wrapped !== null && !Array.isArray(wrapped) ? wrapped : {}) as JsonObject;
  return { kind: 'Validation', apiVersion: 'validation/v1', ...object };
}

/** render words errors as Go's ErrorList.ToAggregate().Error(). */
function render(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map((e) => `${e.field}: ${describeFieldError(e)}`))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}
