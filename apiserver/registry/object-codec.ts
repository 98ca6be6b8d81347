/**
 * ObjectCodec turns request bodies into validated, defaulted objects of a served kind, and
 * stored objects into the served version. Decoding mirrors kube-apiserver: type errors are
 * 400 BadRequest ("cannot be handled as a Deployment"), semantic ones 422 Invalid, unknown
 * fields rejected or warned about per `fieldValidation`.
 */
import type { z } from 'zod';
import { type ApiError, badRequest, invalid } from '../api/api-error.js';
import { apiVersionOf, type FieldError, type KubeObject, type ResourceDefinition } from '../api/resource-definition.js';
import { schemaDocumentFor } from '../api/schema-node.js';
import { isPlainObject, withoutNulls } from '../request/body.js';
import type { FieldValidation } from '../request/query.js';
import { findUnknownFields } from './unknown-fields.js';

export interface DecodeOptions {
  fieldValidation: FieldValidation;
  /** Where to add warnings (the `Warning` response header) for fieldValidation=Warn. */
  warnings: string[];
  /** The body is a whole object (create, update) rather than a patched one: kube-apiserver's
   * body decoder then words a strict decoding error as any other decoding error
   * (`ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: …`),
   * where its patchers report the bare `strict decoding error: …`. */
  wholeObjectBody?: boolean;
}

/** decodeObject validates `body` against the kind's schema and applies its defaults. The
 * result carries the served apiVersion/kind. Throws ApiError 400 or 422 naming every problem. */
export function decodeObject(def: ResourceDefinition, body: Record<string, unknown>, options: DecodeOptions): KubeObject {
  const input = def.unstructured ? withoutMetadataNulls(body) : withoutNulls(body);
  checkTypeMeta(def, input);
  checkUnknownFields(def, input, options);
  if (!isPlainObject(input['metadata'])) input['metadata'] = {};
  const result = def.schema.safeParse(input, { reportInput: true });
  if (!result.success) throw decodeError(def, input, result.error);
  const object = result.data;
  def.defaults?.(object);
  return stampTypeMeta(def, object);
}

/** withoutMetadataNulls drops nulls only inside metadata (Go clients' `creationTimestamp:
 * null`): the rest of an unstructured object keeps them for its kind's schema to judge. */
function withoutMetadataNulls(body: Record<string, unknown>): Record<string, unknown> {
  return isPlainObject(body['metadata']) ? { ...body, metadata: withoutNulls(body['metadata']) } : { ...body };
}

/** stampTypeMeta sets apiVersion/kind of the served version (list items and watch events need them). */
export function stampTypeMeta(def: ResourceDefinition, object: KubeObject): KubeObject {
  object.apiVersion = apiVersionOf(def);
  object.kind = def.kind;
  return object;
}

/** toServed converts a stored object into the served version `def`. For the storage version
 * itself it returns `stored` (stamped with apiVersion/kind, which it already carries): the
 * store hands out fresh copies, so no clone is needed on the hot list/watch paths.
 * NOTE: callers that keep `stored` for comparison must not mutate the result. */
export function toServed(def: ResourceDefinition, stored: KubeObject): KubeObject {
  if (!def.storage.fromStorage) return stampTypeMeta(def, stored);
  return stampTypeMeta(def, def.storage.fromStorage(structuredClone(stored)));
}

/** servedView is toServed for a stored object that nobody may mutate (a watch event every
 * watcher shares): `stored` itself when it already is the served form, else a converted copy. */
export function servedView(def: ResourceDefinition, stored: KubeObject): KubeObject {
  if (def.storage.fromStorage) return toServed(def, stored);
  if (stored.apiVersion === apiVersionOf(def) && stored.kind === def.kind) return stored;
  return stampTypeMeta(def, { ...stored });
}

/** toStored converts an object of the served version `def` into the storage version, with
 * apiVersion and kind as its first keys: the stored text then starts with them, which is how
 * servedText recognises, without parsing, text that is already the served form. */
export function toStored(def: ResourceDefinition, served: KubeObject, storageDef: ResourceDefinition): KubeObject {
  const converted = def.storage.toStorage ? def.storage.toStorage(structuredClone(served)) : served;
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = converted;
  return { apiVersion: apiVersionOf(storageDef), kind: storageDef.kind, ...rest };
}

/** servedText returns the stored JSON text `body` when it already is the served form of
 * `def` (no conversion, and apiVersion and kind first and right: a prefix that can only be
 * top-level keys), else undefined and the caller converts a parsed copy. */
export function servedText(def: ResourceDefinition, body: string): string | undefined {
  if (def.storage.fromStorage) return undefined;
  return body.startsWith(`{"apiVersion":${JSON.stringify(apiVersionOf(def))},"kind":${JSON.stringify(def.kind)},`) ? body : undefined;
}

function checkTypeMeta(def: ResourceDefinition, input: Record<string, unknown>): void {
  const expectedVersion = apiVersionOf(def);
  if (input['apiVersion'] !== undefined && input['apiVersion'] !== expectedVersion) {
    throw badRequest(`the API version in the data (${String(input['apiVersion'])}) does not match the expected API version (${expectedVersion})`);
  }
  if (input['kind'] !== undefined && input['kind'] !== def.kind) {
    throw badRequest(`the kind in the data (${String(input['kind'])}) does not match the expected kind (${def.kind})`);
  }
}

function checkUnknownFields(def: ResourceDefinition, input: Record<string, unknown>, options: DecodeOptions): void {
  if (options.fieldValidation === 'Ignore') return;
  const doc = schemaDocumentFor(def);
  const unknown = findUnknownFields(input, doc.root, doc).map((path) => `unknown field "${path}"`);
  if (unknown.length === 0) return;
  if (options.fieldValidation === 'Strict') {
    const strictError = `strict decoding error: ${unknown.join(', ')}`;
    throw badRequest(options.wholeObjectBody ? `${cannotBeHandled(def)}: ${strictError}` : strictError);
  }
  options.warnings.push(...unknown);
}

function decodeError(def: ResourceDefinition, input: Record<string, unknown>, error: z.ZodError): ApiError {
  const typeIssue = error.issues.find((i) => (i.code === 'invalid_type' && i.input !== undefined) || i.code === 'invalid_union');
  if (typeIssue) {
    const path = formatPath(typeIssue.path);
    const expected = typeIssue.code === 'invalid_type' ? typeIssue.expected : 'one of the allowed types';
    return badRequest(`${cannotBeHandled(def)}: ${path}: expected ${expected}, got ${describeType(typeIssue.input)}`);
  }
  const name = (input['metadata'] as { name?: string } | undefined)?.name ?? '';
  return invalid({ group: def.group, resource: def.plural, kind: def.kind, name }, error.issues.map(toFieldError));
}

/** cannotBeHandled opens kube-apiserver's message for a body it could not decode into the kind. */
function cannotBeHandled(def: ResourceDefinition): string {
  return `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`;
}

/** toFieldError maps one zod issue onto Kubernetes' field error vocabulary. */
export function toFieldError(issue: z.core.$ZodIssue): FieldError {
  const field = formatPath(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      return { type: 'FieldValueRequired', field };
    case 'invalid_value':
      return {
        type: 'FieldValueNotSupported',
        field,
        value: issue.input,
        detail: `supported values: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'too_small':
      return { type: 'FieldValueInvalid', field, value: issue.input, detail: boundDetail('greater', issue.minimum, issue.origin) };
    case 'too_big':
      return { type: 'FieldValueInvalid', field, value: issue.input, detail: boundDetail('less', issue.maximum, issue.origin) };
    default:
      return { type: 'FieldValueInvalid', field, value: issue.input, detail: issue.message };
  }
}

function boundDetail(direction: 'greater' | 'less', bound: number | bigint, origin: string): string {
  if (origin === 'string') return `must be ${direction === 'greater' ? 'at least' : 'no more than'} ${bound} characters`;
  if (origin === 'array') return `must have ${direction === 'greater' ? 'at least' : 'at most'} ${bound} items`;
  return `must be ${direction} than or equal to ${bound}`;
}

/** formatPath renders a path as Kubernetes does: spec.template.spec.containers[0].name. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
