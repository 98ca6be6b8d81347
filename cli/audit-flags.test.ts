import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFlags } from './args.js';
import { auditOptionsFromFlags, forwardedAuditArgs } from './audit-flags.js';
import { upFlags } from './commands/up.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const policyFile = join(dir, 'policy.yaml');
writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
const flagsOf = (argv: string[]) => parseFlags(argv, upFlags).flags;

describe('the audit flags', () => {
  it('configure nothing without both a policy and a log path, as kube-apiserver', () => {
    expect(auditOptionsFromFlags(flagsOf(['--audit-policy-file', policyFile]))).toBeUndefined();
    expect(forwardedAuditArgs(flagsOf(['--audit-log-path', 'audit.log']))).toEqual([]);
  });

  it('read the policy and the log options, and `up` forwards them with absolute paths', () => {
    const flags = flagsOf(['--audit-policy-file', policyFile, '--audit-log-path', 'audit.log', '--audit-log-maxsize', '10', '--audit-log-format', 'legacy']);
    expect(auditOptionsFromFlags(flags)).toEqual({
      policy: { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] },
      log: { path: resolve('audit.log'), maxSizeMb: 10, maxBackups: 0, maxAgeDays: 0 },
      format: 'legacy',
    });
    expect(forwardedAuditArgs(flags)).toEqual([
      '--audit-policy-file',
      policyFile,
      '--audit-log-path',
      resolve('audit.log'),
      '--audit-log-format',
      'legacy',
      '--audit-log-maxsize',
      '10',
      '--audit-log-maxbackup',
      '0',
      '--audit-log-maxage',
      '0',
    ]);
    expect(forwardedAuditArgs(flagsOf(['--audit-policy-file', policyFile, '--audit-log-path', '-']))).toContain('-');
  });

  it('refuse an unknown format', () => {
    expect(() => auditOptionsFromFlags(flagsOf(['--audit-log-format', 'yaml']))).toThrow('--audit-log-format must be one of json, legacy, got "yaml"');
  });
});
