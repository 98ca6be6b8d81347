/**
 * startCluster leaves nothing behind: a Node process that starts and stops clusters exits on
 * its own (no timer, socket or child keeps it alive). The script imports the package entry
 * point from dist/, as a user's test would import 'kubesim'.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../../dist/cli/cluster/index.js');

const SCRIPT = `
const { startCluster } = await import(${JSON.stringify(ENTRY)});
for (const clock of ['real', 'virtual']) {
  const cluster = await startCluster({ clock, nodes: 2 });
  await fetch(cluster.url + '/api/v1/namespaces/default/configmaps', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
  });
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
