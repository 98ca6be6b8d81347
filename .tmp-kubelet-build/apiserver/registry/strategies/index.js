import { namespaceStrategy } from './namespace-strategy.js';
import { podStrategy } from './pod-strategy.js';
import { serviceStrategy } from './service-strategy.js';
const STRATEGIES = {
    pods: podStrategy,
    namespaces: namespaceStrategy,
    services: serviceStrategy,
};
export function strategyFor(storageResource) {
    return STRATEGIES[storageResource] ?? {};
}
//# sourceMappingURL=index.js.map