/** `kubesim up` on a non-loopback address: refused without --allow-remote (the server has no
 * authentication yet), before anything starts or any file is written. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = resolve(import.meta.dirname, '../../dist/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'kubesim-remote-'));

describe('kubesim up --host', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['0.0.0.0', '::'])('refuses %s without --allow-remote, and says what to do', async (host) => {
    const kubeconfig = join(dir, `kubeconfig-${host}`);
    const run = promisify(execFile)(process.execPath, [CLI, 'up', '--host', host, '--port', '0', '--kubeconfig', kubeconfig], { timeout: 20_000 });
    const failure = await run.then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`--host ${host} would let anyone who reaches this machine control the cluster`);
    expect(failure?.stderr).toContain('--allow-remote');
    expect(existsSync(kubeconfig)).toBe(false);
  });
});
