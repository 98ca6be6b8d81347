/**
 * The part of kube-apiserver's API Priority and Fairness config controller that kubesim has:
 * it keeps each FlowSchema's `Dangling` condition (the MISSINGPL column) true exactly when the
 * priority level it references does not exist, following FlowSchemas and priority levels as
 * they are created and deleted. It limits no requests: kubesim has no APF.
 * Runs in the API server process over the store's watch and writes through the status path.
 */
import type { StoreWatch } from '../../store/index.js';
import { danglingCondition, type FlowSchema, flowSchemaDefinition } from '../api/flowcontrol/index.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { createUpdateTracker } from '../fieldmanager/index.js';
import { asKube, type RegistryContext } from '../registry/context.js';
import { updateObject } from '../registry/update.js';

/** The field manager of the condition, as kube-apiserver's controller names itself. */
const MANAGER = 'api-priority-and-fairness-config-consumer-v1';
const FLOW_SCHEMAS = 'flowschemas.flowcontrol.apiserver.k8s.io';
const PRIORITY_LEVELS = 'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io';

export interface DanglingControllerLogger {
  error(details: object, message: string): void;
}

/** startDanglingController syncs now and after every change of either kind; returns what stops it. */
export function startDanglingController(ctx: RegistryContext, logger?: DanglingControllerLogger): () => void {
  let stopped = false;
  let pending = false;
  const watches = new Set<StoreWatch>();
  const sync = () => {
    pending = false;
    if (stopped) return;
    try {
      syncDanglingConditions(ctx);
    } catch (err) {
      logger?.error({ err }, 'FlowSchema Dangling condition sync failed');
    }
  };
  // Several changes in a row (the bootstrap objects) are synced once.
  const schedule = () => {
    if (pending || stopped) return;
    pending = true;
    setImmediate(sync);
  };
  const follow = (resource: string) => {
    const watch = ctx.store.watch({ resource, afterRevision: ctx.store.list({ resource, limit: 1 }).revision });
    watches.add(watch);
    void (async () => {
      for await (const message of watch) if (message.type !== 'BOOKMARK') schedule();
      watches.delete(watch);
      // A watch cut off as too slow starts again from now, after a full sync.
      if (!stopped && watch.endReason === 'too-slow') {
        follow(resource);
        schedule();
      }
    })();
  };
  follow(FLOW_SCHEMAS);
  follow(PRIORITY_LEVELS);
  sync();
  return () => {
    stopped = true;
    for (const watch of watches) watch.close();
  };
}

/** syncDanglingConditions writes the Dangling condition of every FlowSchema whose condition is out of date. */
export function syncDanglingConditions(ctx: RegistryContext): void {
  const levels = new Set(ctx.store.list({ resource: PRIORITY_LEVELS }).items.map((o) => asKube(o).metadata.name));
  const def = (ctx.registry.find('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas') ?? flowSchemaDefinition) as ResourceDefinition;
  for (const stored of ctx.store.list({ resource: FLOW_SCHEMAS }).items) {
    const fs = asKube(stored) as unknown as FlowSchema;
    const level = fs.spec?.priorityLevelConfiguration?.name ?? '';
    const wanted = danglingCondition(level, levels.has(level), rfc3339(ctx.now()));
    const current = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    if (current && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) continue;
    if (current?.status === wanted.status) wanted.lastTransitionTime = current.lastTransitionTime ?? wanted.lastTransitionTime;
    const name = fs.metadata.name ?? '';
    updateObject(
      ctx,
      { def, namespace: '', name },
      {
        scope: 'status',
        dryRun: false,
        fieldTracker: createUpdateTracker({ def, manager: MANAGER, subresource: 'status', now: ctx.now }),
        computeNext: (object) => {
          const next = object as unknown as FlowSchema;
          const others = (next.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
          next.status = { ...next.status, conditions: [...others, wanted] };
          return object;
        },
      },
    );
  }
}
