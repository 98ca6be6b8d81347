/**
 * The simulated userland of kubesim's containers (issue 18): a filesystem per container built from
 * its image family and the pod's volumes, the environment the kubelet gives it, a small POSIX
 * shell and the everyday commands. The kubelet's streaming endpoints reach it through
 * contract.ts; `createUserland` is the factory they call.
 */
import { findContainer } from './container-build.js';
import type { ContainerContext, ContainerUserland, UserlandFactory } from './contract.js';
import { forgetPodNamespaces } from './pid-namespace.js';
import { SimulatedContainer } from './userland.js';
import { newVolumeStores } from './volumes.js';

export type { ContainerContext, ContainerUserland, UserlandFactory } from './contract.js';

/** A factory with its own volume stores (emptyDir per pod, hostPath per node, PVC per claim). */
export interface OwnedUserlandFactory extends UserlandFactory {
  /** Drops a deleted pod's emptyDir volumes. */
  forgetPod(podUid: string): void;
}

/** createUserlandFactory makes a factory whose containers share volumes as a node's would. One
 * per kubelet: its stores hold the emptyDirs of that kubelet's pods. */
export function createUserlandFactory(): OwnedUserlandFactory {
  const stores = newVolumeStores();
  const factory = ((context: ContainerContext): ContainerUserland => {
    const spec = findContainer(context.pod, context.containerName);
    if (!spec) throw new Error(`container ${context.containerName} is not in pod ${context.pod.metadata?.namespace}/${context.pod.metadata?.name}`);
    // Nothing is built until the first exec or attach.
    return new SimulatedContainer(context, spec, stores);
  }) as OwnedUserlandFactory;
  factory.forgetPod = (podUid) => {
    stores.pods.delete(podUid);
    forgetPodNamespaces(stores.pids, podUid);
  };
  return factory;
}

/** The process-wide factory, for callers that run one kubelet per process. */
export const createUserland: OwnedUserlandFactory = createUserlandFactory();
