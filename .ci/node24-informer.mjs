// Part of .ci/node24-smoke.sh: an informer of @kubernetes/client-node 2.x on pods sees the
// add event of a pod this script creates. Usage: node node24-informer.mjs KUBECONFIG
// (run from a folder where client-node 2.x is installed). Exits 1 on failure or after 30 s.
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';

const NAMESPACE = 'default';
const TIMEOUT_MS = 30_000;

const kubeconfigPath = process.argv[2];
if (!kubeconfigPath) {
  console.error('usage: node node24-informer.mjs KUBECONFIG');
  process.exit(2);
}

const kc = new KubeConfig();
kc.loadFromFile(kubeconfigPath);
const core = kc.makeApiClient(CoreV1Api);
const podName = `node24-smoke-${process.pid}`;

const informer = makeInformer(kc, `/api/v1/namespaces/${NAMESPACE}/pods`, () => core.listNamespacedPod({ namespace: NAMESPACE }));
const added = new Promise((resolve, reject) => {
  informer.on('add', (pod) => {
    if (pod.metadata?.name === podName) resolve(pod);
  });
  informer.on('error', reject);
});
let timer;
const timeout = new Promise((_, reject) => {
  timer = setTimeout(() => reject(new Error(`no add event for pod ${podName} within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
});

try {
  await informer.start();
  console.log(`informer: listing and watching pods in ${NAMESPACE}`);
  await core.createNamespacedPod({
    namespace: NAMESPACE,
    body: { metadata: { name: podName }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
  });
  console.log(`informer: created pod ${podName}`);
  const pod = await Promise.race([added, timeout]);
  console.log(`informer: add event for pod ${pod.metadata.name} (resourceVersion ${pod.metadata.resourceVersion})`);
  await core.deleteNamespacedPod({ name: podName, namespace: NAMESPACE, gracePeriodSeconds: 0 });
} catch (err) {
  console.error(`informer: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
  await informer.stop();
}
