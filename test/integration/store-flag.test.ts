/**
 * --store on the real `kubesim apiserver` process: a value it does not know stops the start
 * with what it accepts; `--store etcd` starts the machine's etcd in <data-dir>/etcd and stops
 * it with the server.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findEtcdBinary } from '../../apiserver/etcd-process.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-store-flag-'));
afterAll(async () => {
  await stopAllKubesim();
  rmSync(dir, { recursive: true, force: true });
});

const etcdPid = (dataDir: string) => (JSON.parse(readFileSync(join(dataDir, 'etcd', 'kubesim-etcd.json'), 'utf8')) as { pid: number }).pid;

describe('kubesim apiserver --store', () => {
  it('refuses a store it does not know, saying which it knows', async () => {
    const apiserver = spawnKubesim(['apiserver', '--port', '0', '--insecure-http', '--store', 'postgres']);
    expect(await apiserver.exited).not.toBe(0);
    expect(apiserver.output()).toContain('--store must be sqlite, etcd (start one here) or etcd://host:port[,host:port...] (an etcd you run), got "postgres"');
  });

  it.skipIf(!findEtcdBinary())('etcd: starts etcd in <data-dir>/etcd and stops it with the server (skipped without an etcd binary)', async () => {
    const dataDir = join(dir, 'managed');
    const apiserver = spawnKubesim(['apiserver', '--port', '0', '--insecure-http', '--store', 'etcd', '--data-dir', dataDir]);
    const url = (await apiserver.waitForOutput(/listening on (http:\/\/\S+)/))[1]!;
    await eventually(async () => expect((await request(`${url}/api/v1/namespaces/default/endpoints/kubernetes`)).status).toBe(200));
    await apiserver.stop();
    expect(existsSync(`/proc/${etcdPid(dataDir)}`)).toBe(false);
  });
});
