/**
 * --store: what it accepts (and the message for what it does not), its spelling for a child
 * process, and the etcd this process starts for `--store etcd`: the machine's binary on free
 * ports, healthy before use, the same ports again on the same folder, stopped with the store.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findEtcdBinary, startEtcdProcess } from './etcd-process.js';
import { formatStoreSpec, isSharedStoreSpec, openStoreFromSpec, parseStoreSpec } from './store-spec.js';

describe('parseStoreSpec', () => {
  it('reads sqlite, etcd and etcd://host:port lists, and spells them back', () => {
    expect(parseStoreSpec('sqlite')).toEqual({ kind: 'sqlite' });
    expect(parseStoreSpec('etcd')).toEqual({ kind: 'managed-etcd' });
    const remote = parseStoreSpec('etcd://127.0.0.1:2379,etcd-2.example:2379,[::1]:2379');
    expect(remote).toEqual({ kind: 'etcd', endpoints: ['http://127.0.0.1:2379', 'http://etcd-2.example:2379', 'http://[::1]:2379'] });
    expect(formatStoreSpec(remote)).toBe('etcd://127.0.0.1:2379,etcd-2.example:2379,[::1]:2379');
    expect(formatStoreSpec(parseStoreSpec('etcd'))).toBe('etcd');
    expect([remote, { kind: 'sqlite' as const }].map(isSharedStoreSpec)).toEqual([true, false]);
  });

  it('says what it accepts when given anything else', () => {
    expect(() => parseStoreSpec('postgres')).toThrow(
      '--store must be sqlite, etcd (start one here) or etcd://host:port[,host:port...] (an etcd you run), got "postgres"',
    );
    expect(() => parseStoreSpec('etcd://127.0.0.1')).toThrow('"127.0.0.1" is not host:port');
  });
});

describe.skipIf(!findEtcdBinary())('an etcd started here (skipped when the machine has no etcd binary: install etcd-server)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-process-'));
    dirs.push(dir);
    return dir;
  };
  const pidOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'kubesim-etcd.json'), 'utf8')) as { pid: number }).pid;

  it('serves once started, comes back on the same port on the same folder, and is gone once stopped', async () => {
    const dir = folder();
    const first = await startEtcdProcess({ dataDir: dir });
    const health = await fetch(`${first.endpoints[0]}/health`);
    expect(await health.json()).toMatchObject({ health: 'true' });
    const pid = pidOf(dir);
    await first.stop();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    const second = await startEtcdProcess({ dataDir: dir });
    expect(second.endpoints).toEqual(first.endpoints);
    await second.stop();
  });

  it('says what to do when there is no etcd binary, or it cannot run', async () => {
    await expect(startEtcdProcess({ dataDir: folder(), searchPath: ['/nonexistent'] })).rejects.toThrow(
      "etcd not found: install Debian's etcd-server (apt-get install etcd-server) or pass --store etcd://host:port of an etcd you run",
    );
    await expect(startEtcdProcess({ dataDir: folder(), binary: '/nonexistent/etcd' })).rejects.toThrow(
      'could not run etcd (/nonexistent/etcd): spawn /nonexistent/etcd ENOENT',
    );
  });

  it('--store etcd: a store on the etcd started here, which stops with the store', async () => {
    const dir = folder();
    const opened = await openStoreFromSpec({ kind: 'managed-etcd' }, { dataDir: dir, clock: Date.now, compaction: { keepRevisions: 10, maxAgeMs: 1_000 } });
    const ref = { resource: 'configmaps', namespace: 'default', name: 'kept' };
    opened.store.create(ref, { metadata: { name: 'kept' } });
    expect(opened.store.get(ref).metadata['name']).toBe('kept');
    await opened.close();
    expect(existsSync(`/proc/${pidOf(join(dir, 'etcd'))}`)).toBe(false);
  });
});
