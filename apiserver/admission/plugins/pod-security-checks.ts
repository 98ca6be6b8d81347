/**
 * The Pod Security Standards of kube 1.33, by level and version (pod-security-admission's
 * policy registry): baseline checks in pod-security-baseline.ts, restricted-only ones in
 * pod-security-restricted.ts.
 *
 * For each minor version v1.0 … v1.<newest> the registry keeps, per level, the checks that
 * apply, in kube's order (baseline ids sorted, then restricted ids sorted — the order the
 * reasons appear in messages); a restricted check replaces the baseline checks it overrides
 * while it applies. A version newer than the newest check change (and `latest`) evaluates as
 * the newest. Built once at load: evaluating a pod is a walk over a ready array.
 */
import { BASELINE_CHECKS } from './pod-security-baseline.js';
import { type Check, type CheckPod, containersOf, type Level, type PodLike, type PodView, type Violation } from './pod-security-check-kit.js';
import { RESTRICTED_CHECKS } from './pod-security-restricted.js';

export type { Level, PodLike, SpecLike, Violation } from './pod-security-check-kit.js';

/** The newest minor at which a check changed (v1.32 for kube 1.33: the sysctls). */
export const NEWEST_CHECK_MINOR = Math.max(...[...BASELINE_CHECKS, ...RESTRICTED_CHECKS].flatMap((check) => check.versions.map((v) => v.since)));

/** versionAt: the version of `check` in force at `minor`, if any. */
function versionAt(check: Check, minor: number) {
  let found: Check['versions'][number] | undefined;
  for (const version of check.versions) if (version.since <= minor) found = version;
  return found;
}

const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function checksAt(minor: number): Record<Level, CheckPod[]> {
  const baseline = [...BASELINE_CHECKS].sort(byId).flatMap((check) => {
    const version = versionAt(check, minor);
    return version ? [{ id: check.id, check: version.check }] : [];
  });
  const restricted = [...RESTRICTED_CHECKS].sort(byId).flatMap((check) => {
    const version = versionAt(check, minor);
    return version ? [version] : [];
  });
  const overridden = new Set(restricted.flatMap((version) => version.overrides ?? []));
  return {
    privileged: [],
    baseline: baseline.map((entry) => entry.check),
    restricted: [...baseline.filter((entry) => !overridden.has(entry.id)).map((entry) => entry.check), ...restricted.map((version) => version.check)],
  };
}

const REGISTRY: ReadonlyArray<Record<Level, CheckPod[]>> = Array.from({ length: NEWEST_CHECK_MINOR + 1 }, (_, minor) => checksAt(minor));

/** evaluate lists what `pod` breaks at `level` as of v1.<minor> (Infinity: latest), in kube's order. */
export function evaluate(level: Level, minor: number, pod: PodLike): Violation[] {
  const found: Violation[] = [];
  const checks = REGISTRY[Math.min(minor, NEWEST_CHECK_MINOR)]![level];
  if (checks.length === 0) return found;
  const view: PodView = { annotations: pod.annotations, spec: pod.spec, allContainers: containersOf(pod.spec) };
  for (const check of checks) {
    const violation = check(view);
    if (violation) found.push(violation);
  }
  return found;
}

/** describe words violations as kube's aggregated ForbiddenDetail: `reason (detail), reason (detail)`. */
export function describe(found: readonly Violation[]): string {
  return found.map(({ reason, detail }) => (detail ? `${reason} (${detail})` : reason)).join(', ');
}

/** reasons: kube's aggregated ForbiddenReason, `reason, reason` (the namespace-label warnings). */
export function reasons(found: readonly Violation[]): string {
  return found.map(({ reason }) => reason).join(', ');
}
