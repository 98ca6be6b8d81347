/**
 * RuntimeClass, as kube-apiserver's plugin: a pod naming a RuntimeClass gets the class's
 * pod overhead and its scheduling constraints (node selector merged, tolerations added); a
 * missing class, an overhead the pod states differently, or a node selector that contradicts
 * the class's is refused with kube's messages.
 */

import { forbidden } from '../../api/api-error.js';
import type { Pod } from '../../api/core/pod.js';
import { deepEqual } from '../../api/deep-equal.js';
import type { RuntimeClass } from '../../api/node/runtime-class.js';
import type { AdmissionPlugin } from '../plugin.js';

const RUNTIME_CLASSES = 'runtimeclasses.node.k8s.io';

export const runtimeClass: AdmissionPlugin = {
  name: 'RuntimeClass',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'pods',
  admit(ctx, { name, object }) {
    const spec = (object as unknown as Pod).spec;
    const className = spec?.runtimeClassName;
    if (!spec || !className) return;
    const refused = (message: string) => forbidden(`pods "${name}" is forbidden: ${message}`, { kind: 'pods', name });
    let rc: RuntimeClass;
    try {
      rc = ctx.store.get({ resource: RUNTIME_CLASSES, namespace: '', name: className }) as unknown as RuntimeClass;
    } catch {
      throw refused(`pod rejected: RuntimeClass "${className}" not found`);
    }
    const fixed = rc.overhead?.podFixed;
    if (spec.overhead !== undefined) {
      if (fixed === undefined) throw refused('pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      if (!deepEqual(spec.overhead, fixed)) throw refused("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    } else if (fixed !== undefined) spec.overhead = { ...fixed };
    const selector = rc.scheduling?.nodeSelector;
    if (selector) {
      for (const [key, value] of Object.entries(selector)) {
        const podValue = spec.nodeSelector?.[key];
        if (podValue !== undefined && podValue !== value) {
          throw refused(`conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`);
        }
      }
      spec.nodeSelector = { ...spec.nodeSelector, ...selector };
    }
    const tolerations = rc.scheduling?.tolerations ?? [];
    const added = tolerations.filter((t) => !(spec.tolerations ?? []).some((existing) => deepEqual(existing, t)));
    if (added.length > 0) spec.tolerations = [...(spec.tolerations ?? []), ...added];
  },
};
