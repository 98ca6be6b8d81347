/**
 * docs/tutorials/13-network-policy.md, run as written: a deny-all ingress policy makes wget time
 * out, an allow rule lets the labelled client back in while the stranger stays out, an egress
 * deny stops DNS until port 53 to kube-dns is allowed, and deleting the policies opens all.
 */
import { cpSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommandResult, commandOutput as output, type Step, TUTORIALS_DIR, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('13-network-policy.md');

const SERVED = /^<p>Served by pod <b>web-[a-z0-9]+-[a-z0-9]{5}<\/b>\.<\/p>\n$/;
const TIMED_OUT = 'wget: download timed out\ncommand terminated with exit code 1\n';

describe('tutorial 13: NetworkPolicy', () => {
  const cluster = useTutorialCluster();
  beforeAll(() => {
    // The page is followed from the repository root, where the policies are.
    cpSync(resolve(TUTORIALS_DIR, '..', 'examples/network-policies'), join(dirname(cluster.kubeconfig), 'docs/examples/network-policies'), { recursive: true });
  });

  /** runAlone runs a step of one command that fails as the page says, and returns its result. */
  const runAlone = async (step: Step, command: string): Promise<CommandResult> => {
    expect(step.commands).toEqual([command]);
    const result = await cluster.sh(command);
    expect(result.code).toBe(1);
    return result;
  };

  it('denies, allows one client back, stops DNS with an egress deny, and opens up when the policies go', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'A web Service and two clients',
      'Deny all ingress',
      'Deny all ingress',
      'Allow the client back in',
      'Allow the client back in',
      'Deny all egress: no more DNS',
      'Deny all egress: no more DNS',
      'Allow DNS',
      'Allow DNS',
      'Clean up',
    ]);
    const [setup, deny, cut, allow, stranger, denyEgress, noDns, allowDns, stillCut, cleanup] = steps as [
      Step,
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

    const open = await cluster.run(setup);
    expect(output(open, 'kubectl exec client')).toMatch(SERVED);
    expect(output(open, 'kubectl exec stranger')).toMatch(SERVED);

    const denied = await cluster.run(deny);
    expect(output(denied, 'kubectl apply').trim()).toBe('networkpolicy.networking.k8s.io/deny-ingress created');
    expect(output(denied, 'kubectl get networkpolicy')).toMatch(/^NAME\s+POD-SELECTOR\s+AGE\ndeny-ingress\s+<none>\s+\S+\n$/);
    expect((await runAlone(cut, 'kubectl exec client -- wget -qO- -T 2 http://web')).stderr).toBe(TIMED_OUT);

    expect(output(await cluster.run(allow), 'kubectl exec client')).toMatch(SERVED);
    expect((await runAlone(stranger, 'kubectl exec stranger -- wget -qO- -T 2 http://web')).stderr).toBe(TIMED_OUT);

    await cluster.run(denyEgress);
    const lookup = await runAlone(noDns, 'kubectl exec client -- nslookup web.default.svc.cluster.local');
    expect(lookup.stdout).toBe(';; connection timed out; no servers could be reached\n\n');
    expect(lookup.stderr).toBe('command terminated with exit code 1\n');

    const resolved = output(await cluster.run(allowDns), 'kubectl exec client -- nslookup');
    expect(resolved).toMatch(/^Server:\t\t10\.96\.0\.10\nAddress:\t10\.96\.0\.10:53\n\nName:\tweb\.default\.svc\.cluster\.local\nAddress: 10\.\d+\.\d+\.\d+\n/);
    expect((await runAlone(stillCut, 'kubectl exec client -- wget -qO- -T 2 http://web')).stderr).toBe(TIMED_OUT);

    const cleaned = await cluster.run(cleanup);
    expect(output(cleaned, 'kubectl exec stranger')).toMatch(SERVED);
    expect((await cluster.sh('kubectl get networkpolicy')).stderr.trim()).toBe('No resources found in default namespace.');
  }, 90_000);
});
