/**
 * An HTTPS admission webhook server for tests, on port 0 with a self-signed certificate made
 * by openssl (valid for 127.0.0.1, localhost and the given DNS names). Each test answers
 * AdmissionReviews (or anything) with its own handler; stop() closes it and its connections.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type WebhookHandler = (body: any, req: IncomingMessage, res: ServerResponse) => unknown;

export interface TestWebhookServer {
  port: number;
  /** The certificate, base64 PEM: the webhook configuration's caBundle. */
  caBundle: string;
  url(path: string): string;
  /** Replaces the handler: its return value is sent as JSON (unless it answered itself). */
  handle(handler: WebhookHandler): void;
  stop(): Promise<void>;
}

/** selfSignedCertificate makes a key and a certificate for the names with openssl. */
export function selfSignedCertificate(dnsNames: string[] = []): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-cert-'));
  try {
    const san = ['IP:127.0.0.1', 'DNS:localhost', ...dnsNames.map((n) => `DNS:${n}`)].join(',');
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=test-webhook'];
    execFileSync('openssl', [...args, '-addext', `subjectAltName=${san}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startWebhookServer(dnsNames: string[] = []): Promise<TestWebhookServer> {
  const credentials = selfSignedCertificate(dnsNames);
  let handler: WebhookHandler = () => ({});
  const server = createServer(credentials, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const answer = await handler(text ? JSON.parse(text) : undefined, req, res);
      if (!res.headersSent && !res.writableEnded) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    caBundle: credentials.cert.toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    handle: (next) => {
      handler = next;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** allowed answers a review allowing it, with extra response fields. */
export function reviewAnswer(review: { apiVersion: string; request: { uid: string } }, response: Record<string, unknown> = {}): unknown {
  return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...response } };
}

/** jsonPatch encodes JSON patch operations as a review response's patch field. */
export function jsonPatch(operations: unknown[]): { patchType: 'JSONPatch'; patch: string } {
  return { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(operations)).toString('base64') };
}
