/**
 * serverDefinitions: the built-in kinds as this server serves them. A kind's definition
 * carries its whole behaviour; the one exception is a strategy built from server code that
 * apiserver/api may not import (see KindStrategy), attached here — one line per kind.
 */
import { customResourceDefinitionDefinition } from './api/apiextensions/index.js';
import { builtinDefinitions } from './api/builtin.js';
import type { AnyResourceDefinition, KindStrategy } from './api/resource-definition.js';
import { crdStrategy } from './apiextensions/crd-strategy.js';

const SERVER_STRATEGIES = new Map<AnyResourceDefinition, KindStrategy>([[customResourceDefinitionDefinition, crdStrategy]]);

export function serverDefinitions(): AnyResourceDefinition[] {
  return builtinDefinitions().map((def) => {
    const strategy = SERVER_STRATEGIES.get(def);
    return strategy ? { ...def, strategy } : def;
  });
}
