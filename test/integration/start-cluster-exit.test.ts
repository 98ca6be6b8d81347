/**
 * startCluster leaves nothing behind: a Node process that starts and stops clusters exits on
 * its own (no timer, socket or child keeps it alive). The script imports the package entry
 * point from dist/, as a user's test would import 'kubesim'. One cluster serves HTTPS (the
 * default: the request presents the admin certificate), one plain HTTP (insecure).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../../dist/cli/cluster/index.js');

const SCRIPT = `
const { request } = await import('node:https');
const { startCluster } = await import(${JSON.stringify(ENTRY)});
const post = async (cluster, path, body) => {
  if (cluster.url.startsWith('http:')) return fetch(cluster.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const admin = await cluster.server.clientCertificate({ commonName: 'kubernetes-admin', organizations: ['system:masters'] });
  const tls = { ca: cluster.server.clusterCa.certPem, cert: admin.certPem, key: admin.keyPem };
  return new Promise((done, fail) => {
    const req = request(cluster.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, ...tls }, (res) => res.resume().on('end', () => done(res.statusCode)));
    req.on('error', fail);
    req.end(body);
  });
};
for (const clock of ['real', 'virtual']) {
  const cluster = await startCluster({ clock, nodes: 2, insecure: clock === 'virtual' });
  const status = await post(cluster, '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
  if ((status.status ?? status) !== 201) throw new Error('create answered ' + (status.status ?? status));
  await cluster.settle();
  await cluster.reset();
  await cluster.stop();
}
console.log('stopped');
`;

describe('startCluster process hygiene', () => {
  it('lets the process exit by itself after stop()', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // A leaked handle keeps the process alive: the race fails the test instead of hanging it.
    const timeout = new Promise<'still running'>((done) => setTimeout(() => done('still running'), 20_000).unref());
    const outcome = await Promise.race([exited, timeout]);
    if (outcome === 'still running') child.kill('SIGKILL');
    expect(outcome, output).toBe(0);
    expect(output).toContain('stopped');
  });
});
