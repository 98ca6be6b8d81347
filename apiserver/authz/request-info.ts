/**
 * The authorization attributes of an HTTP request, read from its method and URL alone as
 * kube-apiserver's RequestInfoFactory does (so a request for a resource that does not exist is
 * still authorized first, and an anonymous caller gets 403, not 404): /api/{version}/... and
 * /apis/{group}/{version}/... with at least a resource are resource requests; everything else
 * (/api, /apis/apps/v1, /healthz, /version, /openapi/v2, /metrics, ...) is a non-resource
 * request whose verb is the lower-cased HTTP method.
 */
import { parseFieldSelector } from '../api/fields.js';
import type { RequestAttributes } from './attributes.js';
import type { UserInfo } from './user.js';

const METHOD_VERBS: Partial<Record<string, string>> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
/** Subresources of a namespace itself (/api/v1/namespaces/{name}/status), not kinds inside it. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

type Query = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A watch of one name is asked as `?fieldSelector=metadata.name=x`: kube authorizes it by name. */
function selectedName(query: Query): string | undefined {
  const selector = first(query.fieldSelector);
  if (!selector) return undefined;
  try {
    const name = parseFieldSelector(selector).requiresExactMatch('metadata.name');
    return name && !name.includes('/') && name !== '.' && name !== '..' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The verb of a request to kubesim's own API: GET reads, every other method names its verb. */
const KUBESIM_VERBS: Partial<Record<string, string>> = { ...METHOD_VERBS, GET: 'get', HEAD: 'get' };
/** Second path segments that are actions on a kubesim.io resource rather than a name in it. */
const KUBESIM_ACTIONS = new Set(['advance', 'pause', 'resume', 'speed', 'restore', 'injected']);

/**
 * kubesimAttributes maps kubesim's own API (docs/security.md, "Authorization") onto resources of
 * API group kubesim.io, so RBAC rules grant it like any other API:
 *  - /apis/kubesim.io/v1alpha1/{resource}[/{action}|/{name}]: clock (+ clock/advance, pause,
 *    resume, speed), faults (+ faults/{id}, faults/injected), activity (+ activity/{component}),
 *    history, settle, reset, snapshot (+ snapshot/restore), chaos;
 *  - /kubesim/v1/components[/{name}/{action}] (the supervisor's loops): resource components,
 *    the component as name and start/stop as subresource; /kubesim/v1/shutdown: shutdown.
 * GET is `get` (a watch of history `watch`), POST `create`, DELETE `delete`, PUT `update`.
 * Returns undefined for any other path.
 */
function kubesimAttributes(user: UserInfo, method: string, parts: string[], query: Query): RequestAttributes | undefined {
  let rest: string[];
  if (parts[0] === 'apis' && parts[1] === 'kubesim.io' && parts.length >= 4) rest = parts.slice(3);
  else if (parts[0] === 'kubesim' && parts[1] === 'v1' && parts.length >= 3) rest = parts.slice(2);
  else return undefined;
  const [resource = '', second, third] = rest;
  let verb = KUBESIM_VERBS[method] ?? '';
  if (verb === 'get' && isTrue(first(query.watch))) verb = 'watch';
  const isAction = second !== undefined && KUBESIM_ACTIONS.has(second);
  const name = isAction ? undefined : second;
  const subresource = isAction ? second : third;
  return { user, verb, apiGroup: 'kubesim.io', resource, ...(subresource ? { subresource } : {}), ...(name ? { name } : {}) };
}

/** The URL's path as kube reads it (url.Path: percent-decoding applied). */
function decodedPath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const isTrue = (value: string | undefined) => value === 'true' || value === '1';

/** requestAttributes derives what authorization decides on from a request's method and URL. */
export function requestAttributes(user: UserInfo, method: string, url: string, query: Query): RequestAttributes {
  const queryAt = url.indexOf('?');
  const path = decodedPath(queryAt >= 0 ? url.slice(0, queryAt) : url);
  const nonResource = (): RequestAttributes => ({ user, verb: method.toLowerCase(), path });
  let parts = path.split('/').filter((p) => p !== '');
  const kubesim = kubesimAttributes(user, method, parts, query);
  if (kubesim) return kubesim;
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource();
  let apiGroup = '';
  if (parts[0] === 'apis') {
    if (parts.length < 4) return nonResource();
    apiGroup = parts[1]!;
    parts = parts.slice(3);
  } else {
    parts = parts.slice(2);
  }
  let verb: string;
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    verb = parts[0];
    parts = parts.slice(1);
  } else {
    verb = METHOD_VERBS[method] ?? '';
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts.length >= 3 && verb !== 'proxy' ? parts[2] : undefined;
  if (name === '' && verb === 'get') {
    verb = isTrue(first(query.watch)) ? 'watch' : 'list';
    name = selectedName(query) ?? '';
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    user,
    verb,
    apiGroup,
    resource,
    ...(subresource ? { subresource } : {}),
    ...(name ? { name } : {}),
    ...(namespace ? { namespace } : {}),
  };
}
