/**
 * Helpers around the Reconciler contract (types.ts): terminal errors, work-queue keys, and the
 * per-reconcile logger.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
// ─── Terminal errors ─────────────────────────────────────────────────────────────────
const TERMINAL = Symbol.for('kubesim.TerminalError');
/**
 * TerminalError marks a reconcile failure that retrying cannot fix (invalid user intent, an
 * unsupported spec). The controller logs it, counts it and forgets the key instead of backing
 * off; the object is looked at again only when an event enqueues it.
 */
export class TerminalError extends Error {
    name = 'TerminalError';
    [TERMINAL] = true;
    constructor(cause) {
        super(cause instanceof Error ? cause.message : String(cause), { cause });
    }
}
/**
 * terminalError wraps `err` so the controller does not retry it: `throw terminalError(err)`.
 * An error that already is terminal is returned as it is.
 */
export function terminalError(err) {
    return err instanceof TerminalError ? err : new TerminalError(err);
}
/**
 * isTerminalError reports whether `err`, or any error in its `cause` chain, was made by
 * terminalError (so wrapping a terminal error keeps it terminal, as Go's errors.Is does).
 */
export function isTerminalError(err) {
    const seen = new Set();
    let current = err;
    // `seen` guards against cause cycles.
    while (typeof current === 'object' && current !== null && !seen.has(current)) {
        if (current[TERMINAL] === true)
            return true;
        seen.add(current);
        current = current.cause;
    }
    return false;
}
/**
 * requestKey is the work-queue key of `request`: `namespace/name`, or `name` alone when the
 * namespace is empty (cluster-scoped kinds). Keys are made only here and by keyOf, and read
 * only by parseKey.
 */
export function requestKey(request) {
    return request.namespace === '' ? request.name : `${request.namespace}/${request.name}`;
}
/**
 * keyOf is the work-queue key of an object (see requestKey). Throws when the object has no
 * name: only persisted objects, which always have one, are keyed.
 */
export function keyOf(object) {
    const { namespace = '', name } = object.metadata;
    if (!name)
        throw new Error('keyOf: object has no metadata.name');
    return requestKey({ namespace, name });
}
/**
 * parseKey turns a key made by requestKey/keyOf back into a Request (empty namespace for a
 * bare name). Throws on anything those could not have produced: an empty part or more than
 * one '/'.
 */
export function parseKey(key) {
    const parts = key.split('/');
    const [first, second] = parts;
    if (parts.length === 1 && first)
        return { namespace: '', name: first };
    if (parts.length === 2 && first && second)
        return { namespace: first, name: second };
    throw new Error(`parseKey: malformed key ${JSON.stringify(key)}`);
}
// ─── Per-reconcile logger ────────────────────────────────────────────────────────────
const currentLogger = new AsyncLocalStorage();
/**
 * reconcileLogger returns the logger of the reconcile running in the current async context,
 * already bound to `{ controller, key, reconcileId }` (as controller-runtime's
 * log.FromContext), or `fallback` outside a reconcile. Reconcilers log through it so every
 * line they write can be traced to its reconcile.
 */
export function reconcileLogger(fallback) {
    return currentLogger.getStore() ?? fallback;
}
/**
 * runWithReconcileLogger runs `fn` with `logger` as the reconcileLogger of everything it
 * starts, synchronously or asynchronously. The controller calls it around each reconcile.
 */
export function runWithReconcileLogger(logger, fn) {
    return currentLogger.run(logger, fn);
}
//# sourceMappingURL=reconciler.js.map