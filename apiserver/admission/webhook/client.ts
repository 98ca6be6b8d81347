/**
 * The one webhook client of the server (admission and CRD conversion webhooks), as
 * k8s.io/apiserver/pkg/util/webhook: POST a JSON review to the webhook's clientConfig over
 * HTTPS, verify its certificate against caBundle (or the system roots when empty), give up
 * after the timeout, and return the decoded JSON answer.
 *
 * clientConfig.service is routed to the Service's endpoints (kube-apiserver's endpoint
 * routing): the address of a ready endpoint of an Endpoints object named like the Service or of
 * an EndpointSlice labelled kubernetes.io/service-name. In kubesim that is the address of a
 * server the user runs, e.g. 127.0.0.1:<port>; the certificate must still be valid for
 * <service>.<namespace>.svc, as in a cluster.
 */
import { request as httpsRequest } from 'node:https';
import type { RegistryContext } from '../../registry/context.js';
import { WebhookCallError } from './errors.js';
import { resolveServiceEndpoint } from './service-endpoint.js';

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

/** A webhook answer larger than this is refused (kube-apiserver reads at most 3 MiB more than
 * its request limit; a hostile webhook must not exhaust memory). */
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

/** Target is where one call goes: the URL as printed in errors, the socket to dial and the
 * name the certificate must carry. */
interface Target {
  url: URL;
  host: string;
  port: number;
  serverName: string;
}

/** postReview POSTs `review` to the webhook and returns its parsed JSON body. Throws
 * WebhookCallError, worded as kube's `failed to call webhook: ...` reasons. */
export async function postReview(ctx: RegistryContext, config: WebhookClientConfig, review: unknown, timeoutSeconds: number): Promise<unknown> {
  const target = targetOf(ctx, config, timeoutSeconds);
  const body = JSON.stringify(review);
  const text = await post(target, config.caBundle, body, timeoutSeconds * 1000);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new WebhookCallError(`received invalid webhook response: ${(err as Error).message}`);
  }
}

function targetOf(ctx: RegistryContext, config: WebhookClientConfig, timeoutSeconds: number): Target {
  if (config.url) {
    const url = new URL(config.url);
    url.searchParams.set('timeout', `${timeoutSeconds}s`);
    return { url, host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443), serverName: url.hostname };
  }
  const service = config.service ?? {};
  const namespace = service.namespace ?? '';
  const name = service.name ?? '';
  const port = service.port ?? 443;
  const serverName = `${name}.${namespace}.svc`;
  const url = new URL(`https://${serverName}:${port}${service.path ?? ''}`);
  url.searchParams.set('timeout', `${timeoutSeconds}s`);
  const endpoint = resolveServiceEndpoint(ctx, namespace, name, port);
  return { url, host: endpoint.host, port: endpoint.port, serverName };
}

function post(target: Target, caBundle: string | undefined, body: string, timeoutMs: number): Promise<string> {
  const printed = target.url.toString();
  return new Promise((resolve, reject) => {
    const fail = (message: string) => reject(new WebhookCallError(`failed to call webhook: Post "${printed}": ${message}`));
    const req = httpsRequest(
      {
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        servername: isIp(target.serverName) ? undefined : target.serverName,
        ca: caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined,
        checkServerIdentity: (_host, cert) => checkIdentity(target.serverName, cert),
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => readResponse(res, printed, resolve, reject),
    );
    const timer = setTimeout(() => {
      req.destroy();
      fail('context deadline exceeded');
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => fail(err.message));
    req.end(body);
  });
}

function readResponse(res: import('node:http').IncomingMessage, printed: string, resolve: (text: string) => void, reject: (err: Error) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      res.destroy();
      reject(new WebhookCallError(`failed to call webhook: Post "${printed}": response body too large (more than ${MAX_RESPONSE_BYTES} bytes)`));
      return;
    }
    chunks.push(chunk);
  });
  res.on('error', (err) => reject(new WebhookCallError(`failed to call webhook: Post "${printed}": ${err.message}`)));
  res.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) {
      // The wording of client-go's rest client for a non-2xx answer.
      const detail = text
        ? `an error on the server (${JSON.stringify(text.slice(0, 1024))}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
      reject(new WebhookCallError(`failed to call webhook: ${detail}`));
      return;
    }
    resolve(text);
  });
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** checkIdentity checks the certificate names the host as Go's crypto/tls does, with the
 * message Go prints. */
function checkIdentity(serverName: string, cert: import('node:tls').PeerCertificate): Error | undefined {
  const names = (cert.subjectaltname ?? '').split(', ').filter(Boolean);
  const dns = names.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4).toLowerCase());
  const ips = names.filter((n) => n.startsWith('IP Address:')).map((n) => n.slice(11));
  const host = serverName.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIp(host)) {
    if (ips.includes(host)) return undefined;
    return new Error(`tls: failed to verify certificate: x509: certificate is valid for ${ips.join(', ') || 'no IPs'}, not ${host}`);
  }
  if (dns.some((name) => name === host || (name.startsWith('*.') && host.endsWith(name.slice(1)) && !host.slice(0, -name.length + 1).includes('.'))))
    return undefined;
  return new Error(`tls: failed to verify certificate: x509: certificate is valid for ${dns.join(', ') || 'no names'}, not ${host}`);
}
