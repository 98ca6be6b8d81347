/**
 * ServedCrds keeps the live Registry in step with the CRDs being served: each CRD's served
 * versions are (re)registered when its spec, accepted names or terminating state change, and
 * removed when it goes. Versions are registered in priority order, so discovery lists the
 * preferred one first.
 */
import type { CustomResourceDefinition } from '../api/apiextensions/index.js';
import { deepEqual } from '../api/deep-equal.js';
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { definitionsFor } from './crd-definitions.js';

interface Served {
  /** What the definitions were built from; unchanged input means nothing to redo. */
  source: unknown;
  keys: Array<{ group: string; version: string; plural: string }>;
}

export class ServedCrds {
  private readonly served = new Map<string, Served>();

  constructor(private readonly registry: Registry) {}

  /** serve registers the CRD's served versions (create refused while `terminating`). */
  serve(crd: CustomResourceDefinition, terminating: boolean): void {
    const name = crd.metadata.name ?? '';
    const source = { spec: crd.spec, names: crd.status?.acceptedNames, terminating };
    const current = this.served.get(name);
    if (current && deepEqual(current.source, source)) return;
    const defs = definitionsFor(crd, { terminating });
    this.unserve(name);
    for (const def of defs) this.registry.add(def);
    this.served.set(name, { source, keys: defs.map(({ group, version, plural }) => ({ group, version, plural })) });
  }

  /** unserve stops serving every version of the CRD `name`. */
  unserve(name: string): void {
    const current = this.served.get(name);
    if (!current) return;
    this.served.delete(name);
    for (const key of current.keys) this.registry.remove(key.group, key.version, key.plural);
  }

  /** otherDefinitions lists the served kinds that no CRD defines (the built-ins). */
  otherDefinitions(): ResourceDefinition[] {
    const ours = new Set([...this.served.values()].flatMap((s) => s.keys.map((k) => `${k.group}/${k.version}/${k.plural}`)));
    return this.registry.all().filter((d) => !ours.has(`${d.group}/${d.version}/${d.plural}`));
  }

  /** definitionOf returns a served definition of the CRD `name` (its first, preferred version). */
  definitionOf(name: string): ResourceDefinition | undefined {
    const key = this.served.get(name)?.keys[0];
    return key ? this.registry.find(key.group, key.version, key.plural) : undefined;
  }

  /** names lists the CRDs being served. */
  names(): string[] {
    return [...this.served.keys()];
  }
}
