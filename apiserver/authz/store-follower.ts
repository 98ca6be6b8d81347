/**
 * followResource keeps an in-memory view of one stored resource current: it lists the resource,
 * hands every object to `apply`, then applies each change its watch delivers (a deleted object
 * as undefined). A watch cut off as too slow starts over with `reset` and a fresh list. The
 * authorizers' caches (RBAC objects, the Node authorizer's graph) are built on it.
 */
import type { ObjectRef, Store, StoredObject, StoreWatch } from '../../store/index.js';

export interface Follower {
  stop(): void;
}

export interface FollowOptions {
  apply(ref: ObjectRef, object: StoredObject | undefined): void;
  reset(): void;
  logger?: { error(fields: object, message: string): void };
}

export function followResource(store: Store, resource: string, options: FollowOptions): Follower {
  let stopped = false;
  let watch: StoreWatch | undefined;
  const start = () => {
    if (stopped) return;
    options.reset();
    const { items, revision } = store.list({ resource });
    for (const item of items) {
      const { namespace = '', name = '' } = item.metadata as { namespace?: string; name?: string };
      options.apply({ resource, namespace, name }, item);
    }
    try {
      watch = store.watch({ resource, afterRevision: revision });
    } catch (err) {
      options.logger?.error({ err, resource }, 'authorization cache watch could not start');
      return;
    }
    const current = watch;
    void (async () => {
      for await (const message of current) {
        if (message.type === 'BOOKMARK') continue;
        options.apply(message.ref, message.type === 'DELETED' ? undefined : message.object);
      }
      if (current.endReason === 'too-slow') start();
    })();
  };
  start();
  return {
    stop() {
      stopped = true;
      watch?.close();
    },
  };
}
