/** strategyFor returns the lifecycle hooks of a stored resource (empty for most kinds). */
import { CRD_STORAGE_RESOURCE } from '../../api/apiextensions/index.js';
import { crdStrategy } from '../../apiextensions/crd-strategy.js';
import type { KindStrategy } from '../strategy.js';
import { namespaceStrategy } from './namespace-strategy.js';
import { podStrategy } from './pod-strategy.js';
import { serviceStrategy } from './service-strategy.js';

const STRATEGIES: Record<string, KindStrategy> = {
  pods: podStrategy,
  namespaces: namespaceStrategy,
  services: serviceStrategy,
  [CRD_STORAGE_RESOURCE]: crdStrategy,
};

export function strategyFor(storageResource: string): KindStrategy {
  return STRATEGIES[storageResource] ?? {};
}
