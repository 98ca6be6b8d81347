import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateServiceAccountKey } from './service-account-key.js';

describe('the service-account key pair', () => {
  it('is created once in the PKI directory, owner-only, and read back later', () => {
    const pkiDir = join(mkdtempSync(join(tmpdir(), 'kubesim-sa-key-')), 'pki');
    const created = loadOrCreateServiceAccountKey(pkiDir);
    expect(created.keyFile).toBe(join(pkiDir, 'sa.key'));
    expect(statSync(created.keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(created.publicKeyFile, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(loadOrCreateServiceAccountKey(pkiDir).keyPem).toBe(created.keyPem);
  });

  it('is shared by the in-memory clusters of a process, and new for each kept cluster', () => {
    const dir = () => mkdtempSync(join(tmpdir(), 'kubesim-sa-key-'));
    const shared = [dir(), dir()].map((d) => loadOrCreateServiceAccountKey(d, { shareInProcess: true }).keyPem);
    expect(shared[0]).toBe(shared[1]);
    expect(loadOrCreateServiceAccountKey(dir()).keyPem).not.toBe(shared[0]);
  });
});
