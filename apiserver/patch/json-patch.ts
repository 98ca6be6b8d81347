/**
 * JSON patch (RFC 6902, `application/json-patch+json`): what `kubectl rollout undo` and
 * `kubectl patch --type=json` send. Behaviour and messages follow evanphx/json-patch v4,
 * the library kube-apiserver uses, with these deliberate differences (RFC 6902 wins):
 * - `replace` of a member an object does not have fails (evanphx v4 silently adds it);
 * - `add`, `replace` and `test` need a `value` member (evanphx v4 treats it as null);
 * - `add` at the empty pointer replaces the whole document (evanphx v4 rejects it);
 * - `test` of a missing location fails even when the expected value is null.
 * Kept from evanphx: negative array indices count from the end.
 */
import { badRequest, invalid } from './errors.js';
import { lastToken, lookup, normalizeIndex, parseArrayIndex, parsePointer, resolveParent } from './json-pointer.js';
import { cloneJson, getOwn, goTypeName, hasOwn, isJsonObject, jsonEqual, setOwn } from './json-value.js';

/** JsonPatchOperation is one decoded RFC 6902 operation. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

const OPERATION_NAMES = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;
type OperationName = (typeof OPERATION_NAMES)[number];

/** Messages used when inserting a value, which differ between add, move and copy. */
interface InsertMessages {
  missingPath: string;
  failed: (detail: string) => string;
}

/**
 * applyJsonPatch applies RFC 6902 `operations` to `document` in order and returns the
 * result. All operations are decoded and shape-checked before any is applied; the patch
 * is atomic: on error nothing is returned.
 *
 * Pure: never mutates `document` or `operations`; the result shares no objects with them.
 * Throws PatchError: BadRequest when `operations` is not an array of objects, Invalid for
 * a malformed operation, a missing path, an index out of range or a failed `test`.
 */
export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  const decoded = decodeJsonPatch(operations);
  let result = cloneJson(document);
  for (const operation of decoded) result = applyOperation(result, operation);
  return result;
}

/**
 * decodeJsonPatch checks that `operations` is an RFC 6902 operation list and returns it
 * typed. Throws PatchError as applyJsonPatch documents. Does not copy values.
 */
export function decodeJsonPatch(operations: unknown): JsonPatchOperation[] {
  if (!Array.isArray(operations)) {
    throw badRequest(`json: cannot unmarshal ${goTypeName(operations)} into Go value of type jsonpatch.Patch`);
  }
  return operations.map(decodeOperation);
}

function decodeOperation(raw: unknown): JsonPatchOperation {
  if (!isJsonObject(raw)) {
    throw badRequest(`json: cannot unmarshal ${goTypeName(raw)} into Go value of type jsonpatch.Operation`);
  }
  const op = getOwn(raw, 'op');
  if (!isOperationName(op)) throw invalid(`Unexpected kind: ${typeof op === 'string' ? op : 'unknown'}`);
  const path = requireString(raw, 'path', op);
  switch (op) {
    case 'remove':
      return { op, path };
    case 'move':
    case 'copy':
      return { op, from: requireString(raw, 'from', op), path };
    case 'add':
    case 'replace':
    case 'test':
      if (!hasOwn(raw, 'value')) throw invalid(`${op} operation, missing value field: missing value`);
      return { op, path, value: getOwn(raw, 'value') };
    default: {
      const unreachable: never = op;
      return unreachable;
    }
  }
}

function isOperationName(value: unknown): value is OperationName {
  return OPERATION_NAMES.some((name) => name === value);
}

function requireString(raw: Record<string, unknown>, field: 'path' | 'from', op: OperationName): string {
  const value = getOwn(raw, field);
  if (typeof value !== 'string') throw invalid(`${op} operation failed to decode ${field}: missing value`);
  return value;
}

/** applyOperation applies one operation to `document`, which it owns and may change. */
function applyOperation(document: unknown, operation: JsonPatchOperation): unknown {
  const { path } = operation;
  switch (operation.op) {
    case 'add':
      return insert(document, path, cloneJson(operation.value), {
        missingPath: `add operation does not apply: doc is missing path: "${path}": missing value`,
        failed: (detail) => `error in add for path: '${path}': ${detail}`,
      });
    case 'remove':
      removeAt(document, path);
      return document;
    case 'replace':
      return replaceAt(document, path, cloneJson(operation.value));
    case 'move':
      return moveValue(document, operation.from, path);
    case 'copy':
      return copyValue(document, operation.from, path);
    case 'test':
      testAt(document, path, operation.value);
      return document;
    default: {
      const unreachable: never = operation;
      return unreachable;
    }
  }
}

/** insert adds `value` at `path` (RFC 6902 add semantics) and returns the document. */
function insert(document: unknown, path: string, value: unknown, messages: InsertMessages): unknown {
  const tokens = parsePointer(path);
  if (tokens?.length === 0) return value;
  const parent = tokens && resolveParent(document, tokens);
  if (!tokens || !parent) throw invalid(messages.missingPath);
  const token = lastToken(tokens);
  if (!Array.isArray(parent)) {
    setOwn(parent, token, value);
    return document;
  }
  const index = token === '-' ? parent.length : parseArrayIndex(token);
  if (index === undefined) throw invalid(messages.failed(`value was not a proper array index: '${token}'`));
  // An insert position may equal the length (append); negative positions count from it.
  const position = index < 0 ? index + parent.length + 1 : index;
  if (position < 0 || position > parent.length) {
    throw invalid(messages.failed(`Unable to access invalid index: ${index}: invalid index referenced`));
  }
  parent.splice(position, 0, value);
  return document;
}

/** removeAt deletes the value at `path`; the whole document cannot be removed. */
function removeAt(document: unknown, path: string): void {
  const tokens = parsePointer(path);
  const parent = tokens && tokens.length > 0 ? resolveParent(document, tokens) : undefined;
  if (!tokens || !parent) {
    throw invalid(`remove operation does not apply: doc is missing path: "${path}": missing value`);
  }
  const token = lastToken(tokens);
  const failed = (detail: string) => invalid(`error in remove for path: '${path}': ${detail}`);
  if (!Array.isArray(parent)) {
    if (!hasOwn(parent, token)) throw failed(`Unable to remove nonexistent key: ${token}: missing value`);
    delete parent[token];
    return;
  }
  const index = parseArrayIndex(token);
  const position = normalizeIndex(index, parent.length);
  if (position === undefined) {
    throw failed(`Unable to access invalid index: ${index ?? token}: invalid index referenced`);
  }
  parent.splice(position, 1);
}

/** replaceAt replaces the existing value at `path` and returns the document. */
function replaceAt(document: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens?.length === 0) return value;
  const parent = tokens && resolveParent(document, tokens);
  if (!tokens || !parent) {
    throw invalid(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  }
  const token = lastToken(tokens);
  const missingKey = () => invalid(`replace operation does not apply: doc is missing key: ${path}: missing value`);
  if (Array.isArray(parent)) {
    const position = normalizeIndex(parseArrayIndex(token), parent.length);
    if (position === undefined) throw missingKey();
    parent[position] = value;
  } else {
    if (!hasOwn(parent, token)) throw missingKey();
    setOwn(parent, token, value);
  }
  return document;
}

/** moveValue removes the value at `from` and adds it at `path`. */
function moveValue(document: unknown, from: string, path: string): unknown {
  const value = valueAtFrom(document, from, 'move');
  if (from === path) return document;
  removeAt(document, from);
  // Moving a value into its own child leaves no parent at `path`: that reports here.
  return insert(document, path, value, {
    missingPath: `move operation does not apply: doc is missing destination path: ${path}: missing value`,
    failed: (detail) => `error in move for path: '${path}': ${detail}`,
  });
}

/** copyValue adds a deep copy of the value at `from` at `path`. */
function copyValue(document: unknown, from: string, path: string): unknown {
  const value = valueAtFrom(document, from, 'copy');
  return insert(document, path, cloneJson(value), {
    missingPath: `copy operation does not apply: doc is missing destination path: ${path}: missing value`,
    failed: (detail) => `error while adding value during copy: ${detail}`,
  });
}

function valueAtFrom(document: unknown, from: string, op: 'move' | 'copy'): unknown {
  const tokens = parsePointer(from);
  const found = tokens && tokens.length > 0 ? lookup(document, tokens) : { found: false as const };
  if (!found.found) throw invalid(`${op} operation does not apply: doc is missing from path: ${from}: missing value`);
  return found.value;
}

/** testAt checks that the value at `path` equals `expected` (JSON equality). */
function testAt(document: unknown, path: string, expected: unknown): void {
  const tokens = parsePointer(path);
  if (!tokens || (tokens.length > 0 && !resolveParent(document, tokens))) {
    throw invalid(`test operation does not apply: is missing path: ${path}: missing value`);
  }
  const found = lookup(document, tokens);
  if (!found.found || !jsonEqual(found.value, expected)) throw invalid(`testing value ${path} failed: test failed`);
}
