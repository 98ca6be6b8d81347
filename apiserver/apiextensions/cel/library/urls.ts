/**
 * Kubernetes' URL library: url(), isURL(), getScheme(), getHost(), getHostname(), getPort(),
 * getEscapedPath() and getQuery(). Validation follows Go's url.ParseRequestURI (absolute URLs or
 * absolute paths; no fragment), which is what Kubernetes checks before converting.
 */
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { T } from '../types.js';
import { CelList, CelOpaque, type CelValue, LiteralMap } from '../values.js';

/** URL_TYPE is the CEL type kubernetes.URL. */
export const URL_TYPE = T.opaque('kubernetes.URL');

/** ParsedUrl holds the parts of a URL the library exposes. */
export interface ParsedUrl {
  scheme: string;
  host: string;
  path: string;
  rawQuery: string;
}

/** UrlValue is a kubernetes.URL CEL value. */
export class UrlValue extends CelOpaque {
  readonly typeName = 'kubernetes.URL';

  constructor(
    readonly url: ParsedUrl,
    readonly text: string,
  ) {
    super();
  }

  equals(other: CelValue): boolean {
    return other instanceof UrlValue && other.text === this.text;
  }
}

/** parseRequestUri parses like Go's url.ParseRequestURI; returns an error message when invalid. */
export function parseRequestUri(raw: string): ParsedUrl | string {
  const fail = (why: string): string => `parse ${JSON.stringify(raw)}: ${why}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point, as Go's url.Parse does
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  if (raw === '') return fail('empty url');
  let rest = raw;
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/?]*:/.test(rest) && rest.startsWith(':')) return fail('missing protocol scheme');
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, host: '', path: '', rawQuery };
    return fail('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    const hostOrError = parseAuthority(authority);
    if (hostOrError.error) return fail(hostOrError.error);
    host = hostOrError.host;
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(rest)) return fail(`invalid URL escape ${JSON.stringify(/%.{0,2}/.exec(rest.slice(rest.search(/%(?![0-9A-Fa-f]{2})/)))![0])}`);
  return { scheme, host, path: rest, rawQuery };
}

function parseAuthority(authority: string): { host: string; error?: string } {
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return { host, error: "missing ']' in host" };
    const port = host.slice(close + 1);
    if (port !== '' && !/^:\d*$/.test(port)) return { host, error: `invalid port ${JSON.stringify(port)} after host` };
    return { host };
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^\d*$/.test(host.slice(colon + 1))) {
    return { host, error: `invalid port ${JSON.stringify(host.slice(colon))} after host` };
  }
  const bad = /[^A-Za-z0-9\-._~!$&'()*+,;=:%]/.exec(host);
  if (bad) return { host, error: `invalid character ${JSON.stringify(bad[0])} in host name` };
  return { host };
}

function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

function port(host: string): string {
  const colon = host.lastIndexOf(':');
  if (colon < 0 || (host.startsWith('[') && colon < host.indexOf(']'))) return '';
  return host.slice(colon + 1);
}

function decodeQueryPart(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Go's url.ParseQuery, dropping malformed pairs as URL.Query() does. */
function queryMap(rawQuery: string): LiteralMap {
  const values = new Map<string, string[]>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = decodeQueryPart(eq < 0 ? pair : pair.slice(0, eq));
    const value = decodeQueryPart(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return new LiteralMap([...values].map(([k, v]) => [k, new CelList(v)] as const));
}

function toUrl(text: string): UrlValue {
  const parsed = parseRequestUri(text);
  if (typeof parsed === 'string') throw new CelEvalError(`URL parse error during conversion from string: ${parsed}`);
  return new UrlValue(parsed, text);
}

/** registerUrls adds the URL functions to a registry. */
export function registerUrls(registry: FunctionRegistry): void {
  const U = URL_TYPE;
  const u = (v: CelValue | undefined): ParsedUrl => (v as UrlValue).url;
  registry.add(
    'url',
    global([T.string], U, ([s]) => toUrl(s as string)),
  );
  registry.add(
    'isURL',
    global([T.string], T.bool, ([s]) => typeof parseRequestUri(s as string) !== 'string'),
  );
  registry.add(
    'getScheme',
    member([U], T.string, ([v]) => u(v).scheme),
  );
  registry.add(
    'getHost',
    member([U], T.string, ([v]) => u(v).host),
  );
  registry.add(
    'getHostname',
    member([U], T.string, ([v]) => hostname(u(v).host)),
  );
  registry.add(
    'getPort',
    member([U], T.string, ([v]) => port(u(v).host)),
  );
  registry.add(
    'getEscapedPath',
    member([U], T.string, ([v]) => u(v).path),
  );
  registry.add(
    'getQuery',
    member([U], T.map(T.string, T.list(T.string)), ([v]) => queryMap(u(v).rawQuery)),
  );
}
