/**
 * Priority, as kube-apiserver's plugin: a pod's priorityClassName resolves to its integer
 * priority and preemption policy (the global default class when it names none, priority 0
 * when there is no default). A pod naming a missing class, or stating a priority or policy
 * other than its class's, is refused with kube's messages.
 */
import { forbidden } from '../../api/api-error.js';
import type { Pod } from '../../api/core/pod.js';
import type { PriorityClass } from '../../api/scheduling/priority-class.js';
import type { RegistryContext } from '../../registry/context.js';
import type { AdmissionPlugin } from '../plugin.js';

const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';
/** The store resource of PriorityClasses. */
const PRIORITY_CLASSES = 'priorityclasses.scheduling.k8s.io';

export const priority: AdmissionPlugin = {
  name: 'Priority',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'pods',
  admit(ctx, { name, object }) {
    const spec = (object as unknown as Pod).spec;
    if (!spec) return;
    const refused = (message: string) => forbidden(`pods "${name}" is forbidden: ${message}`, { kind: 'pods', name });
    const resolved = resolveClass(ctx, spec.priorityClassName);
    if (resolved === undefined) throw refused(`no PriorityClass with name ${spec.priorityClassName} was found`);
    const value = resolved.class?.value ?? 0;
    if (spec.priority !== undefined && spec.priority !== value) {
      throw refused(
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
      );
    }
    const policy = resolved.class?.preemptionPolicy ?? PREEMPT_LOWER_PRIORITY;
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
      throw refused(
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    if (resolved.class && !spec.priorityClassName) spec.priorityClassName = resolved.class.metadata.name;
    spec.priority = value;
    spec.preemptionPolicy = policy as typeof spec.preemptionPolicy;
  },
};

/** resolveClass: the named class ({} when no name and no global default), undefined when missing. */
function resolveClass(ctx: RegistryContext, className: string | undefined): { class?: PriorityClass } | undefined {
  if (!className) {
    const classes = ctx.store.list({ resource: PRIORITY_CLASSES }).items as unknown as PriorityClass[];
    // Several defaults can only exist by a race; kube takes the lowest value then.
    const defaults = classes.filter((pc) => pc.globalDefault === true).sort((a, b) => a.value - b.value);
    return { class: defaults[0] };
  }
  try {
    return { class: ctx.store.get({ resource: PRIORITY_CLASSES, namespace: '', name: className }) as unknown as PriorityClass };
  } catch {
    return undefined;
  }
}
