// An admission webhook server on node:https alone: /mutate adds a label to every object it is
// sent, /validate rejects ConfigMaps without a "team" label, /convert converts Widgets between
// two CRD versions. Walkthrough: ./README.md.
//   node examples/admission-webhook/server.mjs [--port 8443] [--dns admission-webhook.default.svc]
// It makes a self-signed certificate with openssl at start (for 127.0.0.1, localhost and each
// --dns name) and prints one JSON line: {"port": <port>, "caBundle": "<base64 PEM>"} — the
// caBundle to put in the webhook configuration.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

export const INJECTED_LABEL = 'admission-webhook.example.com/injected';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, dns: { type: 'string', multiple: true, default: [] } } });

/** selfSignedCertificate returns a key and a certificate valid for the names, made by openssl. */
function selfSignedCertificate(dnsNames) {
  const dir = mkdtempSync(join(tmpdir(), 'admission-webhook-'));
  try {
    const san = ['IP:127.0.0.1', 'DNS:localhost', ...dnsNames.map((n) => `DNS:${n}`)].join(',');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=admission-webhook',
        '-addext',
        `subjectAltName=${san}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** mutate answers with a JSON patch adding the label (creating metadata.labels if needed). */
function mutate(request) {
  const labels = request.object?.metadata?.labels;
  const key = INJECTED_LABEL.replaceAll('~', '~0').replaceAll('/', '~1'); // a JSON pointer token
  const patch = labels
    ? [{ op: 'add', path: `/metadata/labels/${key}`, value: 'true' }]
    : [{ op: 'add', path: '/metadata/labels', value: { [INJECTED_LABEL]: 'true' } }];
  return {
    uid: request.uid,
    allowed: true,
    patchType: 'JSONPatch',
    patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
    warnings: [`label ${INJECTED_LABEL} added`],
  };
}

/** validate rejects a ConfigMap without a "team" label, with a message kubectl prints. */
function validate(request) {
  if (request.object?.metadata?.labels?.team) return { uid: request.uid, allowed: true };
  return { uid: request.uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'the label "team" is required' } };
}

/** convert is a CRD conversion webhook for Widgets (conversion.example.com): v1 has spec.host
 * and spec.port, v2 has spec.address "host:port". */
function convert(request) {
  const convertedObjects = request.objects.map((object) => {
    const { host, port, address, ...rest } = object.spec ?? {};
    const spec = request.desiredAPIVersion.endsWith('/v2')
      ? { ...rest, address: `${host}:${port}` }
      : { ...rest, host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) };
    return { ...object, apiVersion: request.desiredAPIVersion, spec };
  });
  return { uid: request.uid, convertedObjects, result: { status: 'Success' } };
}

const ROUTES = { '/mutate': mutate, '/validate': validate, '/convert': convert };

const credentials = selfSignedCertificate(values.dns);
const server = createServer(credentials, (req, res) => {
  const route = ROUTES[new URL(req.url, 'https://x').pathname];
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.method !== 'POST' || !route) {
      res.writeHead(404).end();
      return;
    }
    const review = JSON.parse(body);
    const answer = { apiVersion: review.apiVersion, kind: review.kind, response: route(review.request) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  // The certificate is self-signed: it is its own CA bundle.
  console.log(JSON.stringify({ port: server.address().port, caBundle: credentials.cert.toString('base64') }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
