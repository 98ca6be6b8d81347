/**
 * Runs the Website operator against the cluster $KUBECONFIG points at (for example the one
 * `kubesim up` started) until Ctrl-C. The CRD is installed separately: kubectl apply -f crd.yaml.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { startWebsiteOperator } from './controller.js';

const kc = new KubeConfig();
kc.loadFromDefault();
const operator = await startWebsiteOperator({ kubeConfig: kc });
console.log(`website-operator: reconciling Websites on ${kc.getCurrentCluster()?.server ?? '?'}; Ctrl-C stops it`);
await new Promise((done) => process.once('SIGINT', done));
await operator.stop();
