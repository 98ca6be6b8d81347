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

describe('--service-account-max-token-expiration', () => {
  it('gives the server the limit in seconds (0: none), and `kubesim up` forwards it', () => {
    const { flags } = parseFlags(['--service-account-max-token-expiration', '1.5h'], apiserverFlags);
    expect(securityOptionsFromFlags(flags).serviceAccountMaxTokenExpirationSeconds).toBe(5400);
    expect(forwardedSecurityArgs(flags)).toEqual(expect.arrayContaining(['--service-account-max-token-expiration', '1.5h']));
    const none = parseFlags(['--service-account-max-token-expiration', '0'], apiserverFlags).flags;
    expect(securityOptionsFromFlags(none).serviceAccountMaxTokenExpirationSeconds).toBeUndefined();
  });

  it('outside 1 hour..2^32 seconds, or not a duration, is a usage error', () => {
    const read = (value: string) => () => securityOptionsFromFlags(parseFlags(['--service-account-max-token-expiration', value], apiserverFlags).flags);
    for (const value of ['59m59s', `${2 ** 32 + 1}s`])
      expect(read(value)).toThrow('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    expect(read('a day')).toThrow('--service-account-max-token-expiration: time: invalid duration "a day"');
  });
});
