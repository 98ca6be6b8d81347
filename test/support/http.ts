/** Small fetch helpers for tests that speak HTTP(S) to a test cluster. */
import type { ClientTls } from '../../controllers/runtime/client/http-transport.js';
import { parseKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = any>(
  url: string,
  init: { method?: string; body?: unknown; contentType?: string; accept?: string; raw?: string | Buffer; tls?: ClientTls; token?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
  let body: string | Buffer | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] = init.contentType ?? 'application/json';
  } else if (init.raw !== undefined) {
    headers['Content-Type'] = init.contentType ?? 'application/json';
  }
  const tls = init.tls ?? credentialsFor(url);
  const response = await fetchWithTls(url, { method: init.method ?? 'GET', headers, body, tls, token: init.token });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (logs, text/plain): the raw text is the body.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** The credentials of the https clusters a test trusts, by origin (see trustKubeconfig). */
const trusted = new Map<string, ClientTls>();

/** trustKubeconfig makes `request` (and `fetchAs`) use kubeconfig YAML's CA and client
 * certificate for its server, as kubectl would: call it once a cluster has started. */
export function trustKubeconfig(kubeconfig: string): void {
  const target = parseKubeconfig(kubeconfig, '<kubeconfig>');
  if (target.tls && target.server.startsWith('https:')) trusted.set(new URL(target.server).origin, target.tls);
}

/** credentialsFor: the trusted credentials of `url`'s server, if any. */
export function credentialsFor(url: string): ClientTls | undefined {
  return url.startsWith('https:') ? trusted.get(new URL(url).origin) : undefined;
}

/** fetchAs is fetch with the trusted credentials of the URL's server (a streaming Response). */
export function fetchAs(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetchWithTls(url, { ...init, tls: credentialsFor(url) });
}

/** kubeconfigTls is the CA and client certificate of kubeconfig YAML, for `request`'s `tls`
 * (undefined for a plain-http kubeconfig). */
export function kubeconfigTls(kubeconfig: string): ClientTls | undefined {
  return parseKubeconfig(kubeconfig, '<kubeconfig>').tls;
}
