/**
 * Registry is the live set of served kinds. Routes, discovery, OpenAPI and Tables read it
 * at request time, so kinds can be added and removed while the server runs (CRDs) and
 * everything follows without a restart.
 */
import { type AnyResourceDefinition, apiVersionOf, type ResourceDefinition } from './resource-definition.js';

export interface GroupVersions {
  /** '' for the core group. */
  name: string;
  /** Served versions in preference order (first = preferred). */
  versions: string[];
}

export class Registry {
  private definitions: ResourceDefinition[] = [];
  private readonly listeners = new Set<() => void>();
  private changeCount = 0;

  constructor(definitions: readonly AnyResourceDefinition[] = []) {
    for (const def of definitions) this.insert(def);
  }

  /** generation increases on every change; caches key on it. */
  get generation(): number {
    return this.changeCount;
  }

  /** add serves a kind (replacing one with the same group/version/plural) and notifies listeners. */
  add(def: AnyResourceDefinition): void {
    this.insert(def);
    this.changed();
  }

  /** remove stops serving group/version/plural; a no-op if it is not served. */
  remove(group: string, version: string, plural: string): void {
    const before = this.definitions.length;
    this.definitions = this.definitions.filter((d) => !(d.group === group && d.version === version && d.plural === plural));
    if (this.definitions.length !== before) this.changed();
  }

  /** all lists every served definition in registration order. */
  all(): readonly ResourceDefinition[] {
    return this.definitions;
  }

  find(group: string, version: string, plural: string): ResourceDefinition | undefined {
    return this.definitions.find((d) => d.group === group && d.version === version && d.plural === plural);
  }

  findByKind(apiVersion: string, kind: string): ResourceDefinition | undefined {
    return this.definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
  }

  /** inGroupVersion lists the kinds served at group/version. */
  inGroupVersion(group: string, version: string): ResourceDefinition[] {
    return this.definitions.filter((d) => d.group === group && d.version === version);
  }

  /** storageDefinition is the served version whose shape is stored (no conversion). */
  storageDefinition(resource: string): ResourceDefinition | undefined {
    return this.definitions.find((d) => d.storage.resource === resource && !d.storage.toStorage);
  }

  /** groups lists API groups with their versions, in registration order (core first). */
  groups(): GroupVersions[] {
    const groups: GroupVersions[] = [];
    for (const def of this.definitions) {
      let group = groups.find((g) => g.name === def.group);
      if (!group) groups.push((group = { name: def.group, versions: [] }));
      if (!group.versions.includes(def.version)) group.versions.push(def.version);
    }
    return groups;
  }

  /** onChange registers a listener called after every add/remove; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private insert(def: AnyResourceDefinition): void {
    const index = this.definitions.findIndex((d) => d.group === def.group && d.version === def.version && d.plural === def.plural);
    if (index >= 0) this.definitions[index] = def;
    else this.definitions.push(def);
  }

  private changed(): void {
    this.changeCount++;
    for (const listener of this.listeners) listener();
  }
}
