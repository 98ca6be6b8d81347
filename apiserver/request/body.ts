/**
 * Request body decoding by Content-Type, with Kubernetes' error wording. Bodies arrive as
 * raw buffers (the server registers no parsers of its own) so every failure becomes a
 * Status error naming the problem, never a crash.
 */
import { isMap, isScalar, parseDocument, type Node as YamlNode } from 'yaml';
import { ApiError, badRequest } from '../api/api-error.js';
import { acceptsProtobuf, decodeProtobufObject, type ExpectedKind, PROTOBUF_MEDIA_TYPE, unsupportedMediaType } from '../protobuf/decode.js';
import { checkJsonDepth, checkYamlShape } from './body-bounds.js';

export const PatchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;
export type PatchType = keyof typeof PatchTypes;

const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml'];

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function unsupported(accepted: readonly string[]): ApiError {
  return new ApiError('UnsupportedMediaType', 415, `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/** ObjectBodyOptions say what else a create/update body may be. */
export interface ObjectBodyOptions {
  /** The kind the endpoint serves: a protobuf body is decoded with its table when it has one
   * (see builtin-protobuf.ts); without it, protobuf is a 415 like any unknown type. */
  expected?: ExpectedKind;
  /** Receives warnings about the body (protobuf fields kubesim ignored). */
  warnings?: string[];
  /** The request's method: a body without a Content-Type reads as JSON except on POST. */
  method?: string;
}

/**
 * typeOrDefault is the media type a body is read as. kube-apiserver reads a body without a
 * Content-Type as JSON, and kubectl relies on it (`scale --current-replicas` PUTs the Scale with
 * none). A POST is the exception: it is the one write a web page can send cross-origin without a
 * preflight, with a Blob body and so no type; PUT, PATCH and DELETE always need a preflight,
 * which this server never grants (request/browser-guard.ts refuses them on their Origin too).
 */
function typeOrDefault(contentType: string | undefined, method: string | undefined): string {
  const type = mediaType(contentType);
  return type === '' && method !== undefined && method !== 'POST' ? 'application/json' : type;
}

/** decodeObjectBody parses a create/update body (JSON, YAML, or Kubernetes protobuf for the
 * kinds that accept it) into a plain object. */
export function decodeObjectBody(contentType: string | undefined, raw: Buffer | undefined, options: ObjectBodyOptions = {}): Record<string, unknown> {
  const type = typeOrDefault(contentType, options.method);
  const { expected } = options;
  const protobuf = expected !== undefined && acceptsProtobuf(expected);
  if (type === PROTOBUF_MEDIA_TYPE && protobuf) return decodeProtobufObject(raw, expected, options.warnings);
  if (!OBJECT_MEDIA_TYPES.includes(type)) throw unsupportedMediaType(protobuf);
  const value = type === 'application/yaml' ? parseYamlText(raw) : parseJsonText(raw);
  if (!isPlainObject(value)) throw badRequest(`the request body must be a JSON object, got ${describeJsonType(value)}`);
  return value;
}

const ALL_PATCH_TYPES = Object.keys(PatchTypes) as PatchType[];

/** patchTypeOf maps a PATCH Content-Type to the patch strategy, 415 for anything else or for
 * a type the resource does not take (custom resources take no strategic merge patch). */
export function patchTypeOf(contentType: string | undefined, accepted: readonly PatchType[] = ALL_PATCH_TYPES): PatchType {
  const type = mediaType(contentType);
  const match = accepted.find((k) => PatchTypes[k] === type);
  if (!match) throw unsupported(accepted.map((k) => PatchTypes[k]));
  return match;
}

/** decodePatchBody parses a PATCH body: JSON for the three JSON patch types, YAML (a superset
 * of JSON) for server-side apply. */
export function decodePatchBody(type: PatchType, raw: Buffer | undefined): unknown {
  const value = type === 'apply' ? parseYamlText(raw) : parseJsonText(raw);
  if (type === 'json' ? !Array.isArray(value) : !isPlainObject(value)) {
    throw badRequest(`the ${PatchTypes[type]} body must be a JSON ${type === 'json' ? 'array' : 'object'}, got ${describeJsonType(value)}`);
  }
  return value;
}

/** decodeOptionalJson parses an optional JSON object body (DeleteOptions); empty → undefined. */
export function decodeOptionalJson(contentType: string | undefined, raw: Buffer | undefined): Record<string, unknown> | undefined {
  if (!raw || raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  const value = decodeJsonBody(typeOrDefault(contentType, 'DELETE'), raw);
  if (!isPlainObject(value)) throw badRequest(`the request body must be a JSON object, got ${describeJsonType(value)}`);
  return value;
}

/** decodeJsonBody parses a body that must be JSON (kubesim's own endpoints, DeleteOptions):
 * 415 for any other Content-Type, a missing one included. */
export function decodeJsonBody(contentType: string | undefined, raw: Buffer | undefined): unknown {
  if (mediaType(contentType) !== 'application/json') throw unsupported(['application/json']);
  return parseJsonText(raw);
}

function parseJsonText(raw: Buffer | undefined): unknown {
  const text = raw?.toString('utf8') ?? '';
  if (text.trim() === '') throw badRequest('the request body is empty: expected a JSON document');
  checkJsonDepth(text);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** parseYamlText parses YAML, and JSON (a subset of YAML, what kubectl sends even as
 * apply-patch+yaml) natively: the YAML parser is far slower per node. */
function parseYamlText(raw: Buffer | undefined): unknown {
  const text = raw?.toString('utf8') ?? '';
  if (text.trim() === '') throw badRequest('the request body is empty: expected a YAML or JSON document');
  if (/^\s*[[{]/.test(text)) {
    checkJsonDepth(text);
    try {
      return JSON.parse(text);
    } catch {
      // Flow-style YAML that is not JSON (`{a: b}`): the YAML parser below reads it.
    }
  }
  checkYamlShape(text);
  // uniqueKeys is checked below in one pass: the parser's own check is quadratic in a map's size.
  const doc = parseDocument(text, { uniqueKeys: false });
  const error = doc.errors[0];
  if (error) throw badRequest(`the request body is not valid YAML: ${error.message.split('\n')[0]}`);
  checkUniqueKeys(doc.contents);
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw badRequest(`the request body is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** checkUniqueKeys rejects a mapping that repeats a key, as Kubernetes' YAML decoder does,
 * walking the document without recursion. */
function checkUniqueKeys(root: unknown): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          const line = (pair.key as YamlNode | null)?.range ? ` (at offset ${(pair.key as YamlNode).range![0]})` : '';
          throw badRequest(`the request body is not valid YAML: mapping key ${JSON.stringify(String(key))} already defined${line}`);
        }
        seen.add(key);
        pending.push(pair.value);
      }
    } else if (node && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items)) {
      for (const item of (node as { items: unknown[] }).items) pending.push(item);
    }
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** withoutNulls drops object keys whose value is null, recursively. Go clients send
 * `creationTimestamp: null`; Kubernetes decodes null as "absent", and so do we. */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) if (child !== null) out[key] = withoutNulls(child);
  return out as T;
}
