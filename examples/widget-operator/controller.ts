/**
 * The Website operator, written with @kubernetes/client-node only (nothing from kubesim): for
 * each Website it keeps an owned Deployment in line with the spec and reports the Deployment's
 * progress in the Website's status.
 *
 *   Website / owned Deployment events ─► work queue (key namespace/name) ─► reconcile:
 *     read the Website from the cache ─► create or update its Deployment ─► write status
 *     ─► requeue at the progress deadline while not Ready
 *
 * Level-triggered and idempotent: a reconcile reads the current state and computes the whole
 * answer, so a missed or repeated event is harmless. Writes carry the resourceVersion read; a
 * 409 Conflict is answered by re-reading and trying again.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  ApiException,
  AppsV1Api,
  CustomObjectsApi,
  type Informer,
  type KubeConfig,
  type KubernetesObject,
  makeInformer,
  type ObjectCache,
  type V1Deployment,
} from '@kubernetes/client-node';
import {
  controllerWebsite,
  desiredDeployment,
  FIELD_MANAGER,
  GROUP,
  hasDrifted,
  isControlledBy,
  MANAGED_BY,
  PLURAL,
  VERSION,
  type Website,
  websiteStatus,
  withDesiredSpec,
} from './website.js';
import { type OperatorClock, type QueueActivity, WorkQueue, wallClock } from './work-queue.js';

export interface WebsiteOperatorOptions {
  kubeConfig: KubeConfig;
  /** Default: wall time. Tests pass kubesim's cluster clock to steer requeues. */
  clock?: OperatorClock;
  /** How long a Website may be not Ready before it is reported Stalled. Default 60 s. */
  progressDeadlineMs?: number;
  /** Where failures are reported. Default console.error. */
  log?: (message: string, err: unknown) => void;
}

export interface WebsiteOperator {
  /** What the work queue holds now (a kubesim test hands this to settle). */
  activity(): QueueActivity;
  /** Stops the informers and the worker; resolves once the reconcile in flight has ended. */
  stop(): Promise<void>;
}

type Cache<T extends KubernetesObject> = Informer<T> & ObjectCache<T>;

interface Context {
  apps: AppsV1Api;
  custom: CustomObjectsApi;
  websites: Cache<Website>;
  deployments: Cache<V1Deployment>;
  clock: OperatorClock;
  progressDeadlineMs: number;
}

const websiteApi = { group: GROUP, version: VERSION, plural: PLURAL };
const CONFLICT_ATTEMPTS = 5;

/** startWebsiteOperator lists and watches Websites and owned Deployments, then reconciles until stopped. */
export async function startWebsiteOperator(options: WebsiteOperatorOptions): Promise<WebsiteOperator> {
  const kc = options.kubeConfig;
  const log = options.log ?? ((message, err) => console.error(`website-operator: ${message}`, err));
  const ctx: Context = {
    apps: kc.makeApiClient(AppsV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    websites: makeInformer<Website>(kc, `/apis/${GROUP}/${VERSION}/${PLURAL}`, () => ctx.custom.listClusterCustomObject(websiteApi)),
    deployments: makeInformer<V1Deployment>(
      kc,
      '/apis/apps/v1/deployments',
      () => ctx.apps.listDeploymentForAllNamespaces({ labelSelector: MANAGED_BY }),
      MANAGED_BY,
    ),
    clock: options.clock ?? wallClock,
    progressDeadlineMs: options.progressDeadlineMs ?? 60_000,
  };
  const queue = new WorkQueue('websites', ctx.clock);
  // Handlers only enqueue keys; the worker does the work.
  ctx.websites.on('change', (website) => queue.add(keyOf(website, website.metadata?.name)));
  ctx.deployments.on('change', (deployment) => {
    const owner = controllerWebsite(deployment);
    if (owner) queue.add(keyOf(deployment, owner));
  });
  let stopped = false;
  const restarts = [restartOnError(ctx.websites, () => stopped, log), restartOnError(ctx.deployments, () => stopped, log)];
  await Promise.all([ctx.websites.start(), ctx.deployments.start()]);
  const worker = (async () => {
    for (let key = await queue.next(); key !== undefined; key = await queue.next()) {
      try {
        const { recheckAfterMs } = await reconcile(ctx, key);
        queue.forget(key);
        if (recheckAfterMs !== undefined) queue.addAfter(key, recheckAfterMs);
      } catch (err) {
        log(`reconcile ${key} failed; retrying`, err);
        queue.retry(key);
      } finally {
        queue.done(key);
      }
    }
  })();
  return {
    activity: () => queue.activity(),
    async stop() {
      stopped = true;
      queue.stop();
      for (const cancel of restarts) cancel();
      await Promise.all([ctx.websites.stop(), ctx.deployments.stop()]);
      await worker;
    },
  };
}

/** reconcile brings one Website's Deployment and status in line; returns when to look again. */
async function reconcile(ctx: Context, key: string): Promise<{ recheckAfterMs?: number }> {
  const [namespace = '', name = ''] = key.split('/');
  const website = ctx.websites.get(name, namespace);
  // Gone or going: the garbage collector deletes the Deployment (it is an owned dependent).
  if (!website || website.metadata?.deletionTimestamp) return {};
  const deployment = await ensureDeployment(ctx, website);
  return writeStatus(ctx, website, deployment);
}

/** ensureDeployment creates the Deployment or corrects its drift; undefined when an object
 * this Website does not control holds the name (it is left alone). */
async function ensureDeployment(ctx: Context, website: Website): Promise<V1Deployment | undefined> {
  const desired = desiredDeployment(website);
  const { namespace = '', name = '' } = desired.metadata!;
  const reread = () => ctx.apps.readNamespacedDeployment({ namespace, name });
  let live = ctx.deployments.get(name, namespace);
  if (!live) {
    try {
      return await ctx.apps.createNamespacedDeployment({ namespace, body: desired, fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (!isConflict(err)) throw err;
      live = await reread(); // AlreadyExists: the cache had not seen it yet
    }
  }
  if (!isControlledBy(live, website)) return undefined;
  return retryOnConflict(structuredClone(live), reread, (current) =>
    hasDrifted(current, desired)
      ? ctx.apps.replaceNamespacedDeployment({ namespace, name, body: withDesiredSpec(current, desired), fieldManager: FIELD_MANAGER })
      : Promise.resolve(current),
  );
}

/** writeStatus writes the status the Website should show, if it differs from what it shows. */
async function writeStatus(ctx: Context, website: Website, deployment: V1Deployment | undefined): Promise<{ recheckAfterMs?: number }> {
  const { namespace = '', name = '' } = website.metadata!;
  let recheckAfterMs: number | undefined;
  const reread = async () => (await ctx.custom.getNamespacedCustomObject({ ...websiteApi, namespace, name })) as Website;
  await retryOnConflict(structuredClone(website), reread, async (current) => {
    const decision = websiteStatus({ website: current, deployment, nowMs: ctx.clock.now(), progressDeadlineMs: ctx.progressDeadlineMs });
    recheckAfterMs = decision.recheckAfterMs;
    if (isDeepStrictEqual(current.status ?? {}, decision.status)) return current;
    const body = { ...current, status: decision.status };
    return (await ctx.custom.replaceNamespacedCustomObjectStatus({ ...websiteApi, namespace, name, body, fieldManager: FIELD_MANAGER })) as Website;
  });
  return recheckAfterMs === undefined ? {} : { recheckAfterMs };
}

/** retryOnConflict writes with `first`; on 409 Conflict it re-reads and writes again. */
async function retryOnConflict<T>(first: T, reread: () => Promise<T>, write: (current: T) => Promise<T>): Promise<T> {
  let current = first;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(current);
    } catch (err) {
      if (!isConflict(err) || attempt >= CONFLICT_ATTEMPTS) throw err;
      current = await reread();
    }
  }
}

function isConflict(err: unknown): boolean {
  return err instanceof ApiException && err.code === 409;
}

function keyOf(object: KubernetesObject, name: string | undefined): string {
  return `${object.metadata?.namespace ?? ''}/${name ?? ''}`;
}

/** restartOnError restarts an informer a second after it fails (client-node stops an informer
 * on any error but 410 Gone and leaves the restart to the application). Wall time on purpose:
 * reconnecting is transport, and must work while a test holds the cluster clock still.
 * Returns a function that cancels a pending restart. */
function restartOnError<T extends KubernetesObject>(informer: Informer<T>, stopped: () => boolean, log: (message: string, err: unknown) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  informer.on('error', (err) => {
    if (stopped()) return;
    log('watch failed; restarting in 1 s', err);
    timer = setTimeout(() => void informer.start(), 1_000);
  });
  return () => clearTimeout(timer);
}
