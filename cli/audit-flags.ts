/**
 * kube-apiserver's audit flags, as `kubesim apiserver` takes them and `kubesim up` forwards
 * them: the policy file, where the log goes (`-` for standard output), its rotation and format.
 */
import { resolve } from 'node:path';
import type { LogFormat } from '../apiserver/audit/event.js';
import { readPolicyFile } from '../apiserver/audit/policy.js';
import type { AuditOptions } from '../apiserver/audit/register.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

const FORMATS: readonly LogFormat[] = ['json', 'legacy'];

export const auditFlags: Record<string, FlagSpec> = {
  'audit-policy-file': { type: 'string', description: 'an audit.k8s.io/v1 Policy: which requests are logged, at which level (none logged without it)' },
  'audit-log-path': { type: 'string', description: 'write audit events to this file, or "-" for standard output (nothing is logged without it)' },
  'audit-log-format': { type: 'string', description: `${FORMATS.join(' or ')}: one audit.k8s.io/v1 Event per line, or a text summary`, default: 'json' },
  'audit-log-maxsize': { type: 'number', description: 'megabytes before the audit log is rotated (0: never)', default: 0 },
  'audit-log-maxbackup': { type: 'number', description: 'rotated audit logs to keep (0: all)', default: 0 },
  'audit-log-maxage': { type: 'number', description: 'days to keep a rotated audit log (0: no limit)', default: 0 },
};

/** auditOptionsFromFlags: the audit options, or undefined when no log is configured (kube logs
 * nothing without both a policy and a log path); a bad policy or format is a usage error. */
export function auditOptionsFromFlags(flags: Flags): AuditOptions | undefined {
  const format = String(flags['audit-log-format'] ?? 'json') as LogFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`--audit-log-format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const policyFile = flags['audit-policy-file'];
  const path = flags['audit-log-path'];
  if (policyFile === undefined || path === undefined) return undefined;
  let policy: AuditOptions['policy'];
  try {
    policy = readPolicyFile(resolve(String(policyFile)));
  } catch (err) {
    throw new UsageError(`--audit-policy-file: ${(err as Error).message}`);
  }
  const log = {
    path: path === '-' ? '-' : resolve(String(path)),
    maxSizeMb: Number(flags['audit-log-maxsize'] ?? 0),
    maxBackups: Number(flags['audit-log-maxbackup'] ?? 0),
    maxAgeDays: Number(flags['audit-log-maxage'] ?? 0),
  };
  return { policy, log, format };
}

/** forwardedAuditArgs are the audit flags `kubesim up` passes on to its API server (paths made absolute). */
export function forwardedAuditArgs(flags: Flags): string[] {
  if (flags['audit-policy-file'] === undefined || flags['audit-log-path'] === undefined) return [];
  const args: string[] = [];
  for (const name of Object.keys(auditFlags)) {
    const value = flags[name];
    if (value === undefined) continue;
    const absolute = (name === 'audit-policy-file' || name === 'audit-log-path') && value !== '-' ? resolve(String(value)) : String(value);
    args.push(`--${name}`, absolute);
  }
  return args;
}
