/** KUBELET_BACKOFF is the policy for CrashLoopBackOff and ImagePullBackOff. */
export const KUBELET_BACKOFF = { initialMs: 10_000, maxMs: 300_000 };
/** hasExpired: the record is too old to count for a failure at eventMs. */
export function hasExpired(entry, eventMs, policy = KUBELET_BACKOFF) {
    return eventMs - entry.lastUpdateMs > 2 * policy.maxMs;
}
/**
 * isInBackoffSince: after a failure at eventMs, must the kubelet still wait at nowMs? False
 * without a record (the first failure restarts at once) or with an expired one.
 */
export function isInBackoffSince(entry, eventMs, nowMs, policy = KUBELET_BACKOFF) {
    if (!entry || hasExpired(entry, eventMs, policy))
        return false;
    return nowMs - eventMs < entry.durationMs;
}
/** nextBackoff is the record after one more retry at nowMs for a failure at eventMs:
 * initial when there was none (or it expired), else doubled up to the cap. */
export function nextBackoff(entry, eventMs, nowMs, policy = KUBELET_BACKOFF) {
    if (!entry || hasExpired(entry, eventMs, policy))
        return { durationMs: policy.initialMs, lastUpdateMs: nowMs };
    return { durationMs: Math.min(entry.durationMs * 2, policy.maxMs), lastUpdateMs: nowMs };
}
/**
 * backoffFromRestarts rebuilds a crash-backoff record from the status alone, for a kubelet
 * that restarted and lost its memory: after `restartCount` restarts the duration is
 * initial × 2^(restartCount − 1), last updated when the latest run started.
 */
export function backoffFromRestarts(restartCount, lastStartMs, policy = KUBELET_BACKOFF) {
    if (restartCount < 1 || lastStartMs === undefined)
        return undefined;
    const durationMs = Math.min(policy.initialMs * 2 ** Math.min(restartCount - 1, 30), policy.maxMs);
    return { durationMs, lastUpdateMs: lastStartMs };
}
//# sourceMappingURL=backoff.js.map