/** EXPECTATIONS_TTL_MS is how long unmet expectations block a ReplicaSet (5 minutes). */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;
/** createExpectations returns an empty, in-memory Expectations that reads time from `clock`. */
export function createExpectations({ clock, ttlMs = EXPECTATIONS_TTL_MS }) {
    const records = new Map();
    const fresh = () => ({ pendingCreates: 0, pendingDeletes: new Set(), setAtMs: clock.now() });
    return {
        expectCreations(key, count) {
            records.set(key, { ...fresh(), pendingCreates: count });
        },
        expectDeletions(key, podKeys) {
            records.set(key, { ...fresh(), pendingDeletes: new Set(podKeys) });
        },
        creationObserved(key) {
            const record = records.get(key);
            if (record)
                record.pendingCreates--;
        },
        deletionObserved(key, podKey) {
            records.get(key)?.pendingDeletes.delete(podKey);
        },
        satisfied(key) {
            const record = records.get(key);
            if (record === undefined)
                return true;
            const fulfilled = record.pendingCreates <= 0 && record.pendingDeletes.size === 0;
            return fulfilled || clock.now() - record.setAtMs > ttlMs;
        },
        delete(key) {
            records.delete(key);
        },
    };
}
//# sourceMappingURL=expectations.js.map