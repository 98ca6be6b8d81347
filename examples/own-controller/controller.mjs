// A controller of your own, on @kubernetes/client-node alone: for every Deployment it keeps a
// ConfigMap <deployment>-info saying which image the Deployment runs and how many replicas it
// wants. Walkthrough: docs/tutorials/09-write-your-own-controller.md.
//   KUBECONFIG=.kubesim/kubeconfig node examples/own-controller/controller.mjs
import { isDeepStrictEqual } from 'node:util';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';

const LABEL = 'example.kubesim.io/info-for'; // on each ConfigMap we make: the Deployment's name
const kc = new KubeConfig();
kc.loadFromDefault(); // $KUBECONFIG
const apps = kc.makeApiClient(AppsV1Api);
const core = kc.makeApiClient(CoreV1Api);

// Observe: an informer lists once, then watches, and keeps a cache of what it has seen.
const deployments = makeInformer(kc, '/apis/apps/v1/deployments', () => apps.listDeploymentForAllNamespaces());
const infos = makeInformer(kc, '/api/v1/configmaps', () => core.listConfigMapForAllNamespaces({ labelSelector: LABEL }), LABEL);

// The work queue holds keys, not events: a key added twice before it is worked on runs once.
const queue = new Set();
let working = false;
let synced = false;
function enqueue(namespace, name) {
  queue.add(`${namespace}/${name}`);
  void work();
}
async function work() {
  if (working || !synced) return;
  working = true;
  for (const key of queue) {
    queue.delete(key);
    await reconcile(key).catch((err) => {
      console.error(`${key}: ${err.message}; retrying in 1s`);
      setTimeout(() => enqueue(...key.split('/')), 1000);
    });
  }
  working = false;
}

// An event only says "look at this Deployment again"; what changed does not matter.
for (const verb of ['add', 'update', 'delete']) {
  deployments.on(verb, (d) => enqueue(d.metadata.namespace, d.metadata.name));
  infos.on(verb, (cm) => enqueue(cm.metadata.namespace, cm.metadata.labels[LABEL]));
}
for (const informer of [deployments, infos]) informer.on('error', () => setTimeout(() => informer.start(), 1000));

// Reconcile: desired state from the Deployment, actual state from the server, close the gap.
async function reconcile(key) {
  const [namespace, name] = key.split('/');
  const deployment = deployments.get(name, namespace);
  if (!deployment || deployment.metadata.deletionTimestamp) return; // the garbage collector removes its ConfigMap
  const data = { image: deployment.spec.template.spec.containers.map((c) => c.image).join(','), replicas: String(deployment.spec.replicas) };
  const cmName = `${name}-info`;
  const live = await core.readNamespacedConfigMap({ namespace, name: cmName }).catch((err) => {
    if (err instanceof ApiException && err.code === 404) return undefined;
    throw err;
  });
  if (!live) {
    const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name, uid: deployment.metadata.uid, controller: true, blockOwnerDeletion: true };
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: cmName, labels: { [LABEL]: name }, ownerReferences: [owner] }, data } });
    console.log(`created ${namespace}/${cmName}: image=${data.image} replicas=${data.replicas}`);
  } else if (!live.metadata.ownerReferences?.some((ref) => ref.uid === deployment.metadata.uid)) {
    console.log(`${namespace}/${cmName} belongs to someone else; leaving it alone`);
  } else if (!isDeepStrictEqual(live.data ?? {}, data)) {
    // `live` carries its resourceVersion: if someone wrote in between, the server answers 409 and we look again.
    await core.replaceNamespacedConfigMap({ namespace, name: cmName, body: { ...live, data } });
    console.log(`updated ${namespace}/${cmName}: image=${data.image} replicas=${data.replicas}`);
  }
}

await Promise.all([deployments.start(), infos.start()]);
synced = true;
console.log('own-controller: watching Deployments');
void work();
