/**
 * Which Pod Security level and version a namespace asks for in each mode (pod-security-admission's
 * api package): the pod-security.kubernetes.io/{enforce,audit,warn}[-version] labels over the
 * defaults of the PodSecurityConfiguration, parsed as kube parses them — a bad enforce level
 * counts as restricted, a bad audit or warn level as privileged (fail open), a bad version as
 * latest, each with a field error; and warn follows a stricter enforce level it was not given.
 */
import type { FieldError } from '../../api/resource-definition.js';
import type { Level } from './pod-security-check-kit.js';

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];
/** `latest`, as a version: newer than any v1.<minor>. */
export const LATEST = Number.POSITIVE_INFINITY;

export type Mode = 'enforce' | 'audit' | 'warn';
export const MODES: readonly Mode[] = ['enforce', 'audit', 'warn'];

export interface LevelVersion {
  level: Level;
  /** The minor of v1.<minor>, or LATEST. */
  version: number;
}

export type Policy = Record<Mode, LevelVersion>;

/** `restricted:latest`, `baseline:v1.24`: how kube names a policy in its messages. */
export const policyName = ({ level, version }: LevelVersion): string => `${level}:${versionName(version)}`;

export const versionName = (version: number): string => (version === LATEST ? 'latest' : `v1.${version}`);

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean => a.level === b.level && a.version === b.version;

/** equivalent: both privileged (whatever their versions), or the same level and version. */
export const equivalent = (a: LevelVersion, b: LevelVersion): boolean => (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);

export const fullyPrivileged = (policy: Policy): boolean => MODES.every((mode) => policy[mode].level === 'privileged');

/** compareLevels: > 0 when `a` is stricter than `b`. */
export const compareLevels = (a: Level, b: Level): number => LEVELS.indexOf(a) - LEVELS.indexOf(b);

export const LEVEL_ERROR = 'must be one of privileged, baseline, restricted';
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

export function parseLevel(value: string): Level | undefined {
  return (LEVELS as readonly string[]).includes(value) ? (value as Level) : undefined;
}

export function parseVersion(value: string): number | undefined {
  if (value === 'latest') return LATEST;
  const match = /^v1\.(0|[1-9][0-9]*)$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

const PRIVILEGED_LATEST: LevelVersion = { level: 'privileged', version: LATEST };
export const PRIVILEGED_POLICY: Policy = { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST };

export interface EvaluatedPolicy {
  policy: Policy;
  /** Bad label values, as metadata.labels[...] field errors. */
  errors: FieldError[];
}

const POLICY_LABELS = MODES.flatMap((mode) => [LABEL_PREFIX + mode, `${LABEL_PREFIX}${mode}-version`]);

const labelError = (label: string, value: string, detail: string): FieldError => ({
  type: 'FieldValueInvalid',
  field: `metadata.labels[${label}]`,
  value,
  detail,
});

/** policyToEvaluate resolves a namespace's labels over the configured defaults (kube's
 * PolicyToEvaluate): always a usable policy, with the errors of the labels it could not read. */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): EvaluatedPolicy {
  // The common case on the pod write path: a namespace without pod-security labels.
  if (!labels || POLICY_LABELS.every((label) => labels[label] === undefined)) return { policy: defaults, errors: [] };
  const errors: FieldError[] = [];
  const policy: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const readLevel = (mode: Mode, whenBad: Level): boolean => {
    const value = labels[LABEL_PREFIX + mode];
    if (value === undefined) return false;
    const level = parseLevel(value);
    if (level === undefined) errors.push(labelError(LABEL_PREFIX + mode, value, LEVEL_ERROR));
    policy[mode].level = level ?? whenBad;
    return level !== undefined;
  };
  const readVersion = (mode: Mode): boolean => {
    const label = `${LABEL_PREFIX}${mode}-version`;
    const value = labels[label];
    if (value === undefined) return false;
    const version = parseVersion(value);
    if (version === undefined) errors.push(labelError(label, value, VERSION_ERROR));
    policy[mode].version = version ?? LATEST;
    return true;
  };
  const hasEnforceLevel = readLevel('enforce', 'restricted');
  readVersion('enforce');
  readLevel('audit', 'privileged');
  readVersion('audit');
  const hasWarnLevel = labels[`${LABEL_PREFIX}warn`] !== undefined;
  readLevel('warn', 'privileged');
  const hasWarnVersion = readVersion('warn');
  // Warn defaults to a stricter enforce level set explicitly (and to its version, unless pinned).
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(policy.enforce.level, policy.warn.level) > 0) {
    policy.warn.level = policy.enforce.level;
    if (!hasWarnVersion) policy.warn.version = policy.enforce.version;
  }
  return { policy, errors };
}

/** aggregateErrors words field errors as kube's ErrorList.ToAggregate() does. */
export function aggregateErrors(errors: readonly FieldError[], describeError: (error: FieldError) => string): string {
  const texts = [...new Set(errors.map((error) => `${error.field}: ${describeError(error)}`))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}
