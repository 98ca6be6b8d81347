/**
 * Causes: why a control loop writes (docs/history.md). Two pieces of ambient state, so
 * neither reconcilers nor event handlers need to change:
 *
 *   informer dispatch ──withTrigger(event)──► handler ──queue.add(key)──► queue notes trigger
 *   worker takes key ──runWithCause({controller, key, reconcileId, trigger})──► reconcile
 *        └─► every write through the HTTP transport carries X-Kubesim-Cause: <Cause as JSON>
 *
 * The trigger is a plain variable, set only for the synchronous span of a dispatch (handlers
 * are synchronous and may only enqueue); the cause lives in AsyncLocalStorage, so it follows
 * the reconcile through every await and into the writes it starts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Cause, CauseTrigger, OriginTrigger } from '../kubesim/history.js';

export type { Cause, CauseTrigger, OriginTrigger, TriggerObject } from '../kubesim/history.js';

/** CAUSE_HEADER carries a Cause as compact JSON on every write a control loop makes. */
export const CAUSE_HEADER = 'X-Kubesim-Cause';

/** originOf is the trigger that started the run `trigger` belongs to (itself unless it is a
 * requeue or stage), or undefined when that is not known. */
export function originOf(trigger: CauseTrigger): OriginTrigger | undefined {
  return trigger.kind === 'requeue' || trigger.kind === 'stage' ? trigger.origin : trigger;
}

let activeTrigger: CauseTrigger | undefined;

/**
 * withTrigger runs `fn` synchronously with `trigger` as the current trigger: every key a work
 * queue takes in meanwhile is noted as queued by it. Restores the previous trigger afterwards,
 * also when `fn` throws; `fn` must not rely on the trigger after an await.
 */
export function withTrigger<T>(trigger: CauseTrigger, fn: () => T): T {
  const previous = activeTrigger;
  activeTrigger = trigger;
  try {
    return fn();
  } finally {
    activeTrigger = previous;
  }
}

/** requeueTrigger is the trigger of a requeue asked for by a reconcile that `previous`
 * triggered: it carries the origin of the run along (so a chain of causes survives
 * reconciles that wrote nothing). */
export function requeueTrigger(reason: 'error' | 'after', previous: CauseTrigger): CauseTrigger {
  const origin = originOf(previous);
  return origin ? { kind: 'requeue', reason, origin } : { kind: 'requeue', reason };
}

/** currentTrigger is the trigger set by the innermost withTrigger running now, if any. */
export function currentTrigger(): CauseTrigger | undefined {
  return activeTrigger;
}

const causes = new AsyncLocalStorage<Cause>();

/** runWithCause runs `fn` with `cause` as the current cause of everything it starts,
 * synchronously or asynchronously (the controller calls it around each reconcile). */
export function runWithCause<T>(cause: Cause, fn: () => T): T {
  return causes.run(cause, fn);
}

/** currentCause is the cause of the reconcile running in this async context, if any. */
export function currentCause(): Cause | undefined {
  return causes.getStore();
}

/** encodeCause renders a cause as the header value: compact JSON. */
export function encodeCause(cause: Cause): string {
  return JSON.stringify(cause);
}
