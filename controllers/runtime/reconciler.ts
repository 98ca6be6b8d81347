/**
 * Helpers around the Reconciler contract (types.ts): terminal errors, work-queue keys, and the
 * per-reconcile logger.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger, Request } from './types.js';

// ─── Terminal errors ─────────────────────────────────────────────────────────────────

const TERMINAL = Symbol.for('kubesim.TerminalError');

/**
 * TerminalError marks a reconcile failure that retrying cannot fix (invalid user intent, an
 * unsupported spec). The controller logs it, counts it and forgets the key instead of backing
 * off; the object is looked at again only when an event enqueues it.
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
  readonly [TERMINAL] = true;

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * terminalError wraps `err` so the controller does not retry it: `throw terminalError(err)`.
 * An error that already is terminal is returned as it is.
 */
export function terminalError(err: unknown): TerminalError {
  return err instanceof TerminalError ? err : new TerminalError(err);
}

/**
 * isTerminalError reports whether `err`, or any error in its `cause` chain, was made by
 * terminalError (so wrapping a terminal error keeps it terminal, as Go's errors.Is does).
 */
export function isTerminalError(err: unknown): boolean {
  const seen = new Set<unknown>();
  let current = err;
  // `seen` guards against cause cycles.
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    if ((current as { [TERMINAL]?: unknown })[TERMINAL] === true) return true;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

// ─── Keys ────────────────────────────────────────────────────────────────────────────

/** KeyedObject is the part of an object its key is made from (cache objects qualify). */
export interface KeyedObject {
  readonly metadata: { readonly namespace?: string; readonly name?: string };
}

/**
 * requestKey is the work-queue key of `request`: `namespace/name`, or `name` alone when the
 * namespace is empty (cluster-scoped kinds). Keys are made only here and by keyOf, and read
 * only by parseKey.
 */
export function requestKey(request: Request): string {
  return request.namespace === '' ? request.name : `${request.namespace}/${request.name}`;
}

/**
 * keyOf is the work-queue key of an object (see requestKey). Throws when the object has no
 * name: only persisted objects, which always have one, are keyed.
 */
export function keyOf(object: KeyedObject): string {
  const { namespace = '', name } = object.metadata;
  if (!name) throw new Error('keyOf: object has no metadata.name');
  return requestKey({ namespace, name });
}

/**
 * parseKey turns a key made by requestKey/keyOf back into a Request (empty namespace for a
 * bare name). Throws on anything those could not have produced: an empty part or more than
 * one '/'.
 */
export function parseKey(key: string): Request {
  const parts = key.split('/');
  const [first, second] = parts;
  if (parts.length === 1 && first) return { namespace: '', name: first };
  if (parts.length === 2 && first && second) return { namespace: first, name: second };
  throw new Error(`parseKey: malformed key ${JSON.stringify(key)}`);
}

// ─── Per-reconcile logger ────────────────────────────────────────────────────────────

const currentLogger = new AsyncLocalStorage<Logger>();

/**
 * reconcileLogger returns the logger of the reconcile running in the current async context,
 * already bound to `{ controller, key, reconcileId }` (as controller-runtime's
 * log.FromContext), or `fallback` outside a reconcile. Reconcilers log through it so every
 * line they write can be traced to its reconcile.
 */
export function reconcileLogger(fallback: Logger): Logger {
  return currentLogger.getStore() ?? fallback;
}

/**
 * runWithReconcileLogger runs `fn` with `logger` as the reconcileLogger of everything it
 * starts, synchronously or asynchronously. The controller calls it around each reconcile.
 */
export function runWithReconcileLogger<T>(logger: Logger, fn: () => T): T {
  return currentLogger.run(logger, fn);
}
