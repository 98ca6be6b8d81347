/**
 * The wide (`-o wide`) columns workload kinds share: the template's container names and
 * images, and the selector, as kube-apiserver's layoutContainerCells prints them.
 */
import type { PodTemplateSpec } from '../core/pod-spec.js';
import type { LabelSelector } from '../meta.js';
import { column } from '../printing.js';
import type { PrintColumn } from '../resource-definition.js';

interface Workload<S> {
  spec?: { selector?: S; template?: PodTemplateSpec };
}

const containersOf = (w: Workload<unknown>) => w.spec?.template?.spec?.containers ?? [];

/** workloadWideColumns returns the Containers, Images and Selector columns; `selector`
 * renders the selector cell (Deployments and ReplicaSets word an empty one differently;
 * ReplicationControllers have a plain label map). */
export function workloadWideColumns<S = LabelSelector>(selector: (s: S | undefined) => string, selectorDescription: string): PrintColumn[] {
  return [
    column(
      'Containers',
      (w: Workload<S>) =>
        containersOf(w)
          .map((c) => c.name)
          .join(','),
      {
        wide: true,
        description: 'Names of each container in the template.',
      },
    ),
    column(
      'Images',
      (w: Workload<S>) =>
        containersOf(w)
          .map((c) => c.image ?? '')
          .join(','),
      {
        wide: true,
        description: 'Images referenced by each container in the template.',
      },
    ),
    column('Selector', (w: Workload<S>) => selector(w.spec?.selector), { wide: true, description: selectorDescription }),
  ];
}
