/**
 * The namespace controller's reconcile (kube's namespace controller + deleter, in our own
 * words):
 *
 *   not deleting ─► make sure status.phase is Active ─► done
 *   deleting, `kubernetes` finalizer present:
 *     discover namespaced kinds ─► delete all content ─► report conditions (/status)
 *       ├ something left (grace periods, finalizers, errors) ─► look again in recheckMs
 *       └ nothing left ─► PUT /finalize without `kubernetes` ─► the server removes the namespace
 */
import { isNotFound } from '../../apiserver/api/api-error.js';

import { KUBERNETES_FINALIZER, type Namespace } from '../../apiserver/api/core/namespace.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DiscoveredResource } from '../runtime/client/discovery.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { objectPath } from '../runtime/client/resource-path.js';
import { KINDS } from '../runtime/kinds.js';
import { reconcileLogger } from '../runtime/reconciler.js';
import type { Clock, Lister, Logger, Reconciler, Result } from '../runtime/types.js';
import { type DeletionReport, failedConditions, hasContentLeft, mergeConditions } from './conditions.js';
import { deleteAllContent } from './content.js';

/** NamespaceReconcilerDeps are what the reconciler reads and writes through. */
export interface NamespaceReconcilerDeps {
  namespaceLister: Lister<Namespace>;
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  /** Cluster time before a namespace whose content is not all gone is looked at again. */
  recheckMs: number;
}

/**
 * createNamespaceReconciler returns the Reconciler for Namespace keys (bare names). A
 * namespace that no longer exists is done ({}). API errors reject (retry with backoff);
 * discovery or content failures are reported as conditions first, then rejected.
 */
export function createNamespaceReconciler(deps: NamespaceReconcilerDeps): Reconciler {
  return {
    async reconcile({ name }) {
      const cached = deps.namespaceLister.get('', name);
      if (!cached) return {};
      if (!cached.metadata.deletionTimestamp) return ensureActive(deps, structuredClone(cached) as Namespace);
      // Work on a live read: the cache may not show our own last status or /finalize write yet.
      const live = await getNamespace(deps.client, name);
      if (!live?.metadata.deletionTimestamp || !(live.spec?.finalizers ?? []).includes(KUBERNETES_FINALIZER)) return {};
      return deleteNamespaceContent(deps, live);
    },
  };
}

/** ensureActive sets status.phase Active on a live namespace that lacks it. */
async function ensureActive(deps: NamespaceReconcilerDeps, namespace: Namespace): Promise<Result> {
  if (namespace.status?.phase === 'Active') return {};
  namespace.status = { ...namespace.status, phase: 'Active' };
  await deps.client.resource(KINDS.namespace).updateStatus(namespace);
  return {};
}

async function deleteNamespaceContent(deps: NamespaceReconcilerDeps, namespace: Namespace): Promise<Result> {
  const name = namespace.metadata.name ?? '';
  const log = reconcileLogger(deps.logger);
  const discovered = await discover(deps.client);
  const report: DeletionReport =
    discovered.error === undefined
      ? await deleteAllContent(deps.client, name, discovered.resources)
      : { discoveryError: discovered.error, contentErrors: [], remainingByResource: new Map(), remainingByFinalizer: new Map() };
  const current = await reportConditions(deps, namespace, report);
  if (report.discoveryError !== undefined || report.contentErrors.length > 0) {
    throw new Error(`namespace ${name}: content deletion incomplete: ${[report.discoveryError, ...report.contentErrors].filter(Boolean).join('; ')}`);
  }
  if (hasContentLeft(report)) {
    log.info({ namespace: name, remaining: Object.fromEntries(report.remainingByResource) }, 'namespace content remains; waiting');
    return { requeueAfterMs: deps.recheckMs };
  }
  await finalize(deps.client, current);
  log.info({ namespace: name }, 'namespace emptied and finalized');
  return {};
}

async function discover(client: KubeClient): Promise<{ resources: DiscoveredResource[]; error?: string }> {
  try {
    return { resources: await client.discover() };
  } catch (err) {
    return { resources: [], error: err instanceof Error ? err.message : String(err) };
  }
}

/** reportConditions writes the report's conditions (and phase Terminating) through /status
 * when they differ from the namespace's; returns the namespace as it now is. */
async function reportConditions(deps: NamespaceReconcilerDeps, namespace: Namespace, report: DeletionReport): Promise<Namespace> {
  const now = rfc3339(deps.clock.now());
  const { conditions, changed } = mergeConditions(namespace.status?.conditions ?? [], failedConditions(report), now);
  if (!changed && namespace.status?.phase === 'Terminating') return namespace;
  const next: Namespace = { ...namespace, status: { ...namespace.status, phase: 'Terminating', conditions } };
  return deps.client.resource(KINDS.namespace).updateStatus(next);
}

/** finalize removes the `kubernetes` finalizer through /finalize; the namespace's uid and
 * resourceVersion make it apply only to the state just judged (409 otherwise: retry). */
async function finalize(client: KubeClient, namespace: Namespace): Promise<void> {
  const { name = '', uid, resourceVersion } = namespace.metadata;
  const finalizers = (namespace.spec?.finalizers ?? []).filter((f) => f !== KUBERNETES_FINALIZER);
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid, resourceVersion }, spec: { finalizers } };
  try {
    await client.raw({
      method: 'PUT',
      path: objectPath(client.resource(KINDS.namespace).definition, '', name, 'finalize'),
      body: JSON.stringify(body),
      contentType: 'application/json',
    });
  } catch (err) {
    // Already gone: someone else finished the job.
    if (!isNotFound(err)) throw err;
  }
}

async function getNamespace(client: KubeClient, name: string): Promise<Namespace | undefined> {
  try {
    return await client.resource(KINDS.namespace).get('', name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
