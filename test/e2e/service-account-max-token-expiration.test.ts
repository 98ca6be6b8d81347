/**
 * `kubesim apiserver --service-account-max-token-expiration`, as kube-apiserver takes it: a
 * TokenRequest for longer is shortened to it with kube's warning, which kubectl prints; a
 * shorter one is left alone; a value outside 1 hour..2^32 seconds stops the start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireKubectl, runKubectl } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-max-token-'));
const kubeconfigPath = join(dir, 'kubeconfig');
const kubectl = (args: string[]) => runKubectl(requireKubectl(), args, { kubeconfigPath, cacheDir: join(dir, 'cache') });

/** lifetimeOf is a JWT's exp − iat, in seconds. */
function lifetimeOf(token: string): number {
  const claims = JSON.parse(Buffer.from(token.trim().split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
  return claims.exp - claims.iat;
}

describe('kubesim apiserver --service-account-max-token-expiration', () => {
  beforeAll(async () => {
    const args = ['apiserver', '--port', '0', '--cluster-loops', 'none', '--data-dir', join(dir, 'data'), '--kubeconfig', kubeconfigPath];
    const server = spawnKubesim([...args, '--service-account-max-token-expiration', '24h']);
    await server.waitForOutput(/listening on https:\/\/\S+/);
    expect((await kubectl(['create', 'serviceaccount', 'bot'])).code).toBe(0);
  });
  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shortens a longer TokenRequest to the limit, with kube-apiserver’s warning', async () => {
    const result = await kubectl(['create', 'token', 'bot', '--duration=48h']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Warning: requested expiration of 172800 seconds shortened to 86400 seconds');
    expect(lifetimeOf(result.stdout)).toBe(86_400);
  });

  it('leaves a shorter one alone', async () => {
    const result = await kubectl(['create', 'token', 'bot', '--duration=2h']);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('Warning');
    expect(lifetimeOf(result.stdout)).toBe(7_200);
  });

  it('refuses to start with a limit under an hour', async () => {
    const server = spawnKubesim(['apiserver', '--port', '0', '--service-account-max-token-expiration', '30m']);
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  });
});
