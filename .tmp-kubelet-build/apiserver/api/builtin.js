/** builtinDefinitions lists every built-in kind, groups in discovery order (core first),
 * each group's versions in preference order. */
import { appsDefinitions } from './apps/index.js';
import { autoscalingDefinitions } from './autoscaling/index.js';
import { coordinationDefinitions } from './coordination/index.js';
import { coreDefinitions } from './core/index.js';
export function builtinDefinitions() {
    return [...coreDefinitions, ...appsDefinitions, ...autoscalingDefinitions, ...coordinationDefinitions];
}
//# sourceMappingURL=builtin.js.map