/**
 * Reading a namespace's pod-security labels as kube's PolicyToEvaluate does, and
 * PodSecurityConfiguration's checks and its AdmissionConfiguration file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePodSecurityAdmissionConfig } from '../../../test/support/admission-config.js';
import { podSecurityFromAdmissionConfigFile, podSecuritySettings } from './pod-security-config.js';
import { LATEST, PRIVILEGED_POLICY, policyName, policyToEvaluate } from './pod-security-policy.js';

const P = 'pod-security.kubernetes.io/';
const names = (labels: Record<string, string>) => {
  const { policy } = policyToEvaluate(labels, PRIVILEGED_POLICY);
  return { enforce: policyName(policy.enforce), audit: policyName(policy.audit), warn: policyName(policy.warn) };
};

describe('policyToEvaluate', () => {
  it('reads each mode’s level and version, latest when no version is given', () => {
    expect(names({ [`${P}enforce`]: 'baseline', [`${P}audit`]: 'restricted', [`${P}audit-version`]: 'v1.24', [`${P}warn`]: 'privileged' })).toEqual({
      enforce: 'baseline:latest',
      audit: 'restricted:v1.24',
      warn: 'privileged:latest',
    });
  });

  it('warn follows a stricter enforce level it was not given, with its version unless warn-version is set', () => {
    expect(names({ [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.30' }).warn).toBe('restricted:v1.30');
    expect(names({ [`${P}enforce`]: 'baseline', [`${P}warn-version`]: 'v1.25' }).warn).toBe('baseline:v1.25');
    expect(names({ [`${P}enforce`]: 'restricted', [`${P}warn`]: 'baseline' }).warn).toBe('baseline:latest');
  });

  it('a bad enforce level is restricted, a bad audit or warn level privileged, a bad version latest — each with a field error', () => {
    const { policy, errors } = policyToEvaluate(
      { [`${P}enforce`]: 'strict', [`${P}audit`]: 'strict', [`${P}warn`]: 'strict', [`${P}enforce-version`]: '1.25' },
      PRIVILEGED_POLICY,
    );
    expect([policy.enforce, policy.audit.level, policy.warn.level]).toEqual([{ level: 'restricted', version: LATEST }, 'privileged', 'privileged']);
    expect(errors.map((e) => `${e.field} ${String(e.value)} ${e.detail}`)).toEqual([
      `metadata.labels[${P}enforce] strict must be one of privileged, baseline, restricted`,
      `metadata.labels[${P}enforce-version] 1.25 must be "latest" or "v1.x"`,
      `metadata.labels[${P}audit] strict must be one of privileged, baseline, restricted`,
      `metadata.labels[${P}warn] strict must be one of privileged, baseline, restricted`,
    ]);
  });

  it('unlabelled namespaces get the configured defaults', () => {
    const { defaults } = podSecuritySettings({ defaults: { enforce: 'baseline', 'enforce-version': 'v1.29', warn: 'restricted' } });
    const { policy } = policyToEvaluate({}, defaults);
    expect([policyName(policy.enforce), policyName(policy.audit), policyName(policy.warn)]).toEqual([
      'baseline:v1.29',
      'privileged:latest',
      'restricted:latest',
    ]);
  });
});

describe('PodSecurity configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-security-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a bad default level or version', () => {
    expect(() => podSecuritySettings({ defaults: { enforce: 'strict', 'warn-version': 'v2.0' } })).toThrow(
      'PodSecurity configuration error: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted, defaults.warn-version: Invalid value: "v2.0": must be "latest" or "v1.x"',
    );
  });

  it('reads PodSecurity’s entry of an AdmissionConfiguration, inline or by path', () => {
    const inline = writePodSecurityAdmissionConfig(
      dir,
      '    defaults: {enforce: baseline}\n    exemptions: {namespaces: [kube-system], usernames: [ci], runtimeClasses: [kata]}\n',
    );
    expect(podSecurityFromAdmissionConfigFile(inline)).toMatchObject({ defaults: { enforce: 'baseline' }, exemptions: { namespaces: ['kube-system'] } });
    writeFileSync(
      join(dir, 'psa.yaml'),
      'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\nexemptions: {usernames: [ci]}\n',
    );
    const byPath = join(dir, 'by-path.yaml');
    writeFileSync(byPath, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: psa.yaml\n');
    expect(podSecurityFromAdmissionConfigFile(byPath)?.exemptions).toEqual({ usernames: ['ci'] });
    const other = join(dir, 'other.yaml');
    writeFileSync(other, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: x.yaml\n');
    expect(podSecurityFromAdmissionConfigFile(other)).toBeUndefined();
  });
});
