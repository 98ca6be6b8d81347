/**
 * Runs examples/python/test_kubesim.py — a plain unittest file using Debian's python3-kubernetes
 * — against a real `kubesim up`, as a Python project's CI would, and asserts that it passed.
 * The Python file is the example; this wrapper only makes CI run it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const PYTHON = '/usr/bin/python3';
const EXAMPLE = resolve(import.meta.dirname, '../../examples/python/test_kubesim.py');

/** pythonKubernetesProblem says why Debian's python cannot import kubernetes (undefined if it can). */
function pythonKubernetesProblem(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import kubernetes'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${PYTHON} cannot run (${probe.error.message})`;
  if (probe.status !== 0) return `${PYTHON} cannot import kubernetes:\n${probe.stderr.trim()}`;
  return undefined;
}

interface Run {
  code: number | null;
  output: string;
}

/** runUnittest runs the example with KUBECONFIG set, to its exit. */
function runUnittest(kubeconfig: string, home: string): Promise<Run> {
  // Only /usr/bin on PATH: a pyenv python3 earlier on PATH would lack the module. No
  // __pycache__ left in examples/.
  const env = { PATH: '/usr/bin:/bin', HOME: home, KUBECONFIG: kubeconfig, PYTHONDONTWRITEBYTECODE: '1' };
  const child = spawn(PYTHON, ['-m', 'unittest', '-v', basename(EXAMPLE)], { cwd: dirname(EXAMPLE), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

describe('examples/python/test_kubesim.py against kubesim up', () => {
  const problem = pythonKubernetesProblem();
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-python-example-'));
  let run: Run | undefined;

  beforeAll(async () => {
    if (problem) return;
    const kubeconfig = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig, '--nodes', '1']);
    await up.waitForOutput(/API server https?:\/\/\S+/);
    run = await runUnittest(kubeconfig, dir);
  }, 90_000);

  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes', () => {
    // No silent skip: CI installs it (.ci/run); elsewhere: apt-get install -y python3-kubernetes.
    expect(problem, "install Debian's python3-kubernetes: apt-get install -y python3-kubernetes").toBeUndefined();
    expect(run?.output).toMatch(/test_deployment_pods_run_once_the_cluster_settles .* ok/);
    expect(run?.output).toMatch(/test_reset_removes_what_a_test_created .* ok/);
    expect(run?.output).toMatch(/Ran 2 tests/);
    expect(run?.code, run?.output).toBe(0);
  });
});
