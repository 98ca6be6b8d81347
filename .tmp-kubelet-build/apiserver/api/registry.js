/**
 * Registry is the live set of served kinds. Routes, discovery, OpenAPI and Tables read it
 * at request time, so kinds can be added and removed while the server runs (CRDs) and
 * everything follows without a restart.
 */
import { apiVersionOf } from './resource-definition.js';
export class Registry {
    definitions = [];
    listeners = new Set();
    changeCount = 0;
    constructor(definitions = []) {
        for (const def of definitions)
            this.insert(def);
    }
    /** generation increases on every change; caches key on it. */
    get generation() {
        return this.changeCount;
    }
    /** add serves a kind (replacing one with the same group/version/plural) and notifies listeners. */
    add(def) {
        this.insert(def);
        this.changed();
    }
    /** remove stops serving group/version/plural; a no-op if it is not served. */
    remove(group, version, plural) {
        const before = this.definitions.length;
        this.definitions = this.definitions.filter((d) => !(d.group === group && d.version === version && d.plural === plural));
        if (this.definitions.length !== before)
            this.changed();
    }
    /** all lists every served definition in registration order. */
    all() {
        return this.definitions;
    }
    find(group, version, plural) {
        return this.definitions.find((d) => d.group === group && d.version === version && d.plural === plural);
    }
    findByKind(apiVersion, kind) {
        return this.definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
    }
    /** inGroupVersion lists the kinds served at group/version. */
    inGroupVersion(group, version) {
        return this.definitions.filter((d) => d.group === group && d.version === version);
    }
    /** storageDefinition is the served version whose shape is stored (no conversion). */
    storageDefinition(resource) {
        return this.definitions.find((d) => d.storage.resource === resource && !d.storage.toStorage);
    }
    /** groups lists API groups with their versions, in registration order (core first). */
    groups() {
        const groups = [];
        for (const def of this.definitions) {
            let group = groups.find((g) => g.name === def.group);
            if (!group)
                groups.push((group = { name: def.group, versions: [] }));
            if (!group.versions.includes(def.version))
                group.versions.push(def.version);
        }
        return groups;
    }
    /** onChange registers a listener called after every add/remove; returns an unsubscribe function. */
    onChange(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }
    insert(def) {
        const index = this.definitions.findIndex((d) => d.group === def.group && d.version === def.version && d.plural === def.plural);
        if (index >= 0)
            this.definitions[index] = def;
        else
            this.definitions.push(def);
    }
    changed() {
        this.changeCount++;
        for (const listener of this.listeners)
            listener();
    }
}
//# sourceMappingURL=registry.js.map