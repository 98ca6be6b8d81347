/**
 * kube-apiserver's ValidatingAdmissionPolicy status controller: when a policy's generation
 * moves past status.observedGeneration, it type-checks the policy (type-checking.ts) and writes
 * status.typeChecking.expressionWarnings with the generation it checked. Runs in the API
 * server process over the store's watch and writes through the status path.
 */
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import { validatingAdmissionPolicyDefinition } from '../../api/admissionregistration/admission-policy.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import { createUpdateTracker } from '../../fieldmanager/index.js';
import { asKube, type RegistryContext } from '../../registry/context.js';
import { updateObject } from '../../registry/update.js';
import { POLICIES } from './policy-cache.js';
import { typeCheck } from './type-checking.js';

const MANAGER = 'validatingadmissionpolicy-status-controller';

export interface StatusControllerLogger {
  error(details: object, message: string): void;
}

/** startPolicyStatusController checks now and after every policy change; returns what stops it. */
export function startPolicyStatusController(ctx: RegistryContext, logger?: StatusControllerLogger): () => void {
  let stopped = false;
  let pending = false;
  let watch: ReturnType<RegistryContext['store']['watch']> | undefined;
  const sync = () => {
    pending = false;
    if (stopped) return;
    try {
      syncPolicyStatuses(ctx);
    } catch (err) {
      logger?.error({ err }, 'ValidatingAdmissionPolicy status type checking failed');
    }
  };
  const schedule = () => {
    if (pending || stopped) return;
    pending = true;
    setImmediate(sync);
  };
  const follow = () => {
    const current = ctx.store.watch({ resource: POLICIES, afterRevision: ctx.store.currentRevision });
    watch = current;
    void (async () => {
      for await (const message of current) if (message.type !== 'BOOKMARK') schedule();
      if (!stopped && current.endReason === 'too-slow') {
        follow();
        schedule();
      }
    })();
  };
  follow();
  sync();
  return () => {
    stopped = true;
    watch?.close();
  };
}

/** syncPolicyStatuses writes the status of every policy whose generation was not yet checked. */
export function syncPolicyStatuses(ctx: RegistryContext): void {
  const def = validatingAdmissionPolicyDefinition as unknown as ResourceDefinition;
  for (const stored of ctx.store.list({ resource: POLICIES }).items) {
    const policy = asKube(stored) as unknown as ValidatingAdmissionPolicy;
    const generation = policy.metadata?.generation;
    if (generation === undefined || policy.status?.observedGeneration === generation) continue;
    const warnings = typeCheck(ctx.registry, policy);
    updateObject(
      ctx,
      { def, namespace: '', name: policy.metadata?.name ?? '' },
      {
        scope: 'status',
        dryRun: false,
        fieldTracker: createUpdateTracker({ def, manager: MANAGER, subresource: 'status', now: ctx.now }),
        computeNext: (object) => {
          const next = object as unknown as ValidatingAdmissionPolicy;
          next.status = {
            ...next.status,
            observedGeneration: generation,
            typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {},
          };
          return object;
        },
      },
    );
  }
}
