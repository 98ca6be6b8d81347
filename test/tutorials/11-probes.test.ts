/**
 * docs/tutorials/11-probes.md, run as written on a real `kubesim up`: a readiness probe takes a
 * pod whose page was deleted out of its Service's ready endpoints (nginx answers 403 for a
 * directory without an index) and brings it back once the page returns; a liveness probe on
 * the same broken page restarts the container, with the kubelet's Unhealthy and Killing events,
 * and the new container serves the image's page again.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type CommandResult, commandOutput, onlyCommands, type Step, TUTORIALS_DIR, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('11-probes.md');

/** endpoints: the EndpointSlice lines of a step, sorted (the slice keeps no particular order). */
const endpoints = (results: CommandResult[]) => commandOutput(results, 'kubectl get endpointslices').trim().split('\n').sort();

describe('tutorial 11: probes', () => {
  const cluster = useTutorialCluster();
  beforeAll(() => {
    // The page is followed from the repository root, where the manifests are.
    const dir = dirname(cluster.kubeconfig);
    mkdirSync(join(dir, 'docs/examples'), { recursive: true });
    for (const manifest of ['probes.yaml', 'liveness.yaml'])
      copyFileSync(resolve(TUTORIALS_DIR, '..', 'examples', manifest), join(dir, 'docs/examples', manifest));
  });

  it('breaks the page, sees the pod leave the endpoints, fixes it, and restarts a container on liveness', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Two web servers behind a Service',
      'Break the page',
      'Break the page',
      'See it leave the Service',
      'Fix it',
      'A liveness probe restarts the container',
      'A liveness probe restarts the container',
      'A liveness probe restarts the container',
      'Clean up',
    ]);
    const [start, breakPage, describePod, leave, fix, liveness, describeLiveness, listFiles, cleanup] = steps as [
      Step,
      Step,
      Step,
      Step,
      Step,
      Step,
      Step,
      Step,
      Step,
    ];

    await cluster.run(start);
    // The EndpointSlice follows the pods' Ready conditions a moment after `kubectl wait` returns.
    const startSlices = onlyCommands(start, 'kubectl get endpointslices');
    await eventually(async () => expect(endpoints(await cluster.run(startSlices))).toEqual(['web-1 ready=true', 'web-2 ready=true']), { timeoutMs: 20_000 });

    const broken = await cluster.run(breakPage);
    expect(commandOutput(broken, 'kubectl wait')).toBe('pod/web-1 condition met\n');
    const pods = commandOutput(broken, 'kubectl get pods');
    expect(pods).toMatch(/^web-1\s+0\/1\s+Running\s+0\s/m);
    expect(pods).toMatch(/^web-2\s+1\/1\s+Running\s+0\s/m);
    expect(commandOutput(await cluster.run(describePod), 'kubectl describe')).toMatch(
      /Warning\s+Unhealthy\s+.*kubelet\s+Readiness probe failed: HTTP probe failed with statuscode: 403\n/,
    );

    await eventually(async () => expect(endpoints(await cluster.run(leave))).toEqual(['web-1 ready=false', 'web-2 ready=true']), {
      timeoutMs: 20_000,
    });

    const fixed = await cluster.run(fix);
    expect(commandOutput(fixed, 'kubectl wait')).toBe('pod/web-1 condition met\n');
    const slices = onlyCommands(fix, 'kubectl get endpointslices');
    await eventually(async () => expect(endpoints(await cluster.run(slices))).toEqual(['web-1 ready=true', 'web-2 ready=true']), {
      timeoutMs: 20_000,
    });

    const restarted = await cluster.run(liveness);
    expect(commandOutput(restarted, "kubectl wait --for=jsonpath='{.status.containerStatuses[0].restartCount}'=1")).toBe('pod/liveness condition met\n');
    expect(commandOutput(restarted, 'kubectl get pod liveness')).toMatch(/^liveness\s+\d\/1\s+Running\s+1 \(\d+s ago\)\s/m);
    const described = commandOutput(await cluster.run(describeLiveness), 'kubectl describe');
    expect(described).toMatch(/Warning\s+Unhealthy\s+.*kubelet\s+Liveness probe failed: HTTP probe failed with statuscode: 403\n/);
    expect(described).toMatch(/Normal\s+Killing\s+.*kubelet\s+Container nginx failed liveness probe, will be restarted\n/);
    expect(described).toMatch(/Last State:\s+Terminated\n\s+Reason:\s+Completed\n\s+Exit Code:\s+0\n/);
    expect(described).toMatch(/Restart Count:\s+1\n/);
    expect(commandOutput(await cluster.run(listFiles), 'kubectl exec')).toBe('50x.html\nindex.html\n');

    expect(commandOutput(await cluster.run(cleanup), 'kubectl delete')).toBe(
      'service "web" deleted\npod "web-1" deleted\npod "web-2" deleted\npod "liveness" deleted\n',
    );
  });
});
