/**
 * Parses the list/watch query parameters that narrow a collection: label and field
 * selectors, limit/continue, resourceVersion/resourceVersionMatch. Shared by list, watch and
 * deletecollection so all three select exactly the same objects.
 */
import { ApiError, badRequest, expired } from '../api/api-error.js';
import { type FieldSelectorQuery, parseFieldSelector } from '../api/fields.js';
import { type LabelSelectorQuery, parseLabelSelector } from '../api/labels.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { parseUint64, type Query, queryInt, queryString } from '../request/query.js';

export interface Selection {
  labels: LabelSelectorQuery;
  fields: FieldSelectorQuery;
  /** True when neither selector narrows anything. */
  everything: boolean;
  matches: (object: KubeObject) => boolean;
}

/** parseSelection reads labelSelector and fieldSelector, rejecting unsupported field labels
 * with Kubernetes' message. */
export function parseSelection(def: ResourceDefinition, query: Query): Selection {
  const labels = parseSelector(() => parseLabelSelector(queryString(query, 'labelSelector') ?? ''));
  const fields = parseSelector(() => parseFieldSelector(queryString(query, 'fieldSelector') ?? ''));
  const getters = def.fieldSelectors ?? {};
  for (const field of fields.fields()) {
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !getters[field]) {
      throw badRequest(`field label not supported: ${field}`);
    }
  }
  const get = (object: KubeObject) => (field: string) => {
    if (field === 'metadata.name') return object.metadata.name;
    if (field === 'metadata.namespace') return object.metadata.namespace;
    return getters[field]?.(object);
  };
  return {
    labels,
    fields,
    everything: labels.isEverything() && fields.isEverything(),
    matches: (object) => labels.matches(object.metadata.labels) && fields.matches(get(object)),
  };
}

function parseSelector<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest((err as Error).message);
  }
}

/** ContinueToken is the opaque `continue` value: the list's snapshot revision and the key
 * of the last object returned. */
export interface ContinueToken {
  revision: number;
  namespace: string;
  name: string;
}

export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ rv: token.revision, ns: token.namespace, n: token.name })).toString('base64url');
}

export function decodeContinue(text: string): ContinueToken {
  try {
    const raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { rv?: unknown; ns?: unknown; n?: unknown };
    if (typeof raw.rv === 'number' && typeof raw.ns === 'string' && typeof raw.n === 'string') {
      return { revision: raw.rv, namespace: raw.ns, name: raw.n };
    }
  } catch {
    // Falls through to the error below: a token we did not issue.
  }
  throw badRequest(`continue key is not valid: ${JSON.stringify(text)}`);
}

export const EXPIRED_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export interface ListWindow {
  limit?: number;
  continueToken?: ContinueToken;
  /** Snapshot revision to read at, or undefined for the latest state. */
  revision?: number;
}

/** parseListWindow applies Kubernetes' resourceVersion / resourceVersionMatch / continue rules
 * for lists. `currentRevision` bounds requests for revisions the server has not reached. */
export function parseListWindow(query: Query, currentRevision: number): ListWindow {
  const limit = queryInt(query, 'limit');
  const continueText = queryString(query, 'continue');
  const resourceVersion = queryString(query, 'resourceVersion') || undefined;
  const match = queryString(query, 'resourceVersionMatch') || undefined;
  const window: ListWindow = { limit: limit && limit > 0 ? limit : undefined };
  if (match && match !== 'Exact' && match !== 'NotOlderThan') {
    throw badRequest(`resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan"`);
  }
  if (continueText) {
    if (resourceVersion && resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    window.continueToken = decodeContinue(continueText);
    window.revision = window.continueToken.revision;
    return window;
  }
  if (match && !resourceVersion) throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (!resourceVersion || resourceVersion === '0') return window;
  const requested = parseResourceVersion(resourceVersion);
  if (requested > currentRevision) throw tooLargeResourceVersion(requested, currentRevision);
  if (match === 'Exact') window.revision = requested;
  return window;
}

/** parseResourceVersion reads a resourceVersion parameter, 400 when it is not one of ours. */
export function parseResourceVersion(text: string): number {
  const parsed = parseUint64(text);
  if ('error' in parsed)
    throw badRequest(`invalid resource version: ${JSON.stringify(text)}${parsed.error === 'value out of range' ? ': value out of range' : ''}`);
  return parsed.value;
}

/** tooLargeResourceVersion is kube-apiserver's 504 for a revision it has not reached yet;
 * clients (client-go reflectors) retry it. */
export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError('Timeout', 504, `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** tooOldResourceVersion is the 410 Gone for a revision whose history was compacted. */
export function tooOldResourceVersion(requested: number, compacted: number): ApiError {
  return expired(`too old resource version: ${requested} (${compacted})`);
}
