import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateServiceAccountKey } from './service-account-key.js';

const made: string[] = [];
const scratchDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-sa-key-'));
  made.push(dir);
  return dir;
};

describe('the service-account key pair', () => {
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is created once in the PKI directory, owner-only, and read back later', () => {
    const pkiDir = join(scratchDir(), 'pki');
    const created = loadOrCreateServiceAccountKey(pkiDir);
    expect(created.keyFile).toBe(join(pkiDir, 'sa.key'));
    expect(statSync(created.keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(created.publicKeyFile, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(loadOrCreateServiceAccountKey(pkiDir).keyPem).toBe(created.keyPem);
  });

  it('is shared by the in-memory clusters of a process, and new for each kept cluster', () => {
    const shared = [scratchDir(), scratchDir()].map((d) => loadOrCreateServiceAccountKey(d, { shareInProcess: true }).keyPem);
    expect(shared[0]).toBe(shared[1]);
    expect(loadOrCreateServiceAccountKey(scratchDir()).keyPem).not.toBe(shared[0]);
  });
});
