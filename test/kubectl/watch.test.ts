/**
 * The real `kubectl get -w` against a kubesim cluster: the initial table, then one row per
 * change made after it started; it ends cleanly when the stream ends.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { configMapYaml, deploymentYaml, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: get -w', (binary) => {
  const k = useKubectlCluster(binary);

  it('prints the table, then a row for a change made after it started', async () => {
    await k.apply(configMapYaml('watched'));
    const watch = k.watch(['get', 'cm', 'watched', '-w', '--show-labels', '-v=6']);
    const initial = await watch.waitFor((lines) => lines.length >= 2);
    await watch.watching();
    expect(initial[0]).toMatch(/^NAME\s+DATA\s+AGE\s+LABELS$/);
    expect(initial[1]).toMatch(/^watched\s+1\s+\d+s\s+<none>$/);

    await k.ok(['label', 'cm', 'watched', 'seen=yes']);
    const lines = await watch.waitFor((all) => all.length >= 3);
    expect(lines[2]).toMatch(/^watched\s+1\s+\d+s\s+seen=yes$/);

    // kubectl's interrupt handler ends `get -w` on SIGTERM with exit status 1.
    const ended = await watch.stop();
    expect(ended.code === 1 || ended.signal !== null).toBe(true);
    expect(watch.lines()).toHaveLength(3);
  });

  it('sees new objects and deletions in a namespace-wide watch', async () => {
    // kubectl prints nothing for an empty list in watch mode, so there is nothing to wait for:
    // an object created before the watch starts is in its list, one created after is an event.
    const watch = k.watch(['get', 'deploy', '-w']);
    await k.apply(deploymentYaml('arrives'));
    await watch.waitFor((lines) => lines.some((line) => /^arrives\s+0\/2\s+0\s+0\s+\d+s$/.test(line)));
    await k.ok(['delete', 'deploy', 'arrives', '--wait=false']);
    // The DELETED event prints the row once more.
    const lines = await watch.waitFor((all) => all.filter((line) => line.startsWith('arrives ')).length >= 2);
    expect(lines.filter((line) => /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/.test(line))).toHaveLength(1);
    await watch.stop();
  });

  it('exits 0 when the watch request ends (--request-timeout)', async () => {
    await k.apply(configMapYaml('timed'));
    const watch = k.watch(['get', 'cm', 'timed', '-w', '--request-timeout=2s', '-v=6']);
    await watch.waitFor((lines) => lines.length >= 2);
    await watch.watching();
    await k.ok(['annotate', 'cm', 'timed', 'touched=1']);
    await watch.waitFor((lines) => lines.length >= 3);
    const ended = await watch.exited;
    expect(ended.code).toBe(0);
    expect(ended.stdout.trim().split('\n').slice(1)).toEqual([expect.stringMatching(/^timed\s+1\s+\d+s$/), expect.stringMatching(/^timed\s+1\s+\d+s$/)]);
  });
});
