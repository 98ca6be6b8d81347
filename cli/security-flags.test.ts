/**
 * --admission-control-config-file as `kubesim apiserver` reads it and `kubesim up` forwards it:
 * PodSecurity's configuration from the AdmissionConfiguration, a bad one a usage error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePodSecurityAdmissionConfig } from '../test/support/admission-config.js';
import { parseFlags } from './args.js';
import { apiserverFlags } from './commands/apiserver.js';
import { forwardedSecurityArgs, securityOptionsFromFlags } from './security-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'security-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--admission-control-config-file', () => {
  it('gives the server PodSecurity’s configuration, and `kubesim up` forwards it', () => {
    const file = writePodSecurityAdmissionConfig(dir, '    defaults: {warn: restricted}\n    exemptions: {namespaces: [kube-system]}\n');
    const { flags } = parseFlags(['--admission-control-config-file', file], apiserverFlags);
    expect(securityOptionsFromFlags(flags).podSecurity).toEqual({
      apiVersion: 'pod-security.admission.config.k8s.io/v1',
      kind: 'PodSecurityConfiguration',
      defaults: { warn: 'restricted' },
      exemptions: { namespaces: ['kube-system'] },
    });
    expect(forwardedSecurityArgs(flags).slice(-2)).toEqual(['--admission-control-config-file', file]);
  });

  it('a bad level or a missing file is a usage error', () => {
    const bad = writePodSecurityAdmissionConfig(dir, '    defaults: {enforce: strict}\n');
    expect(() => securityOptionsFromFlags(parseFlags(['--admission-control-config-file', bad], apiserverFlags).flags)).toThrow(
      '--admission-control-config-file: PodSecurity configuration error: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    const missing = join(dir, 'missing.yaml');
    expect(() => securityOptionsFromFlags(parseFlags(['--admission-control-config-file', missing], apiserverFlags).flags)).toThrow(
      /^--admission-control-config-file: ENOENT/,
    );
  });
});
