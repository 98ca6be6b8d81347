/** Reading the ConfigMaps, Secrets, Services and Nodes a container's env and volumes refer to. */
import type { ClusterReader } from './contract.js';

/** keyValues: a ConfigMap's data and binaryData, or a Secret's data decoded, as bytes by key. */
export function keyValues(resource: 'configmaps' | 'secrets', object: Record<string, unknown>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  if (resource === 'configmaps') {
    for (const [key, value] of Object.entries((object['data'] ?? {}) as Record<string, string>)) out.set(key, encoder.encode(value));
    for (const [key, value] of Object.entries((object['binaryData'] ?? {}) as Record<string, string>)) out.set(key, Buffer.from(value, 'base64'));
  } else {
    for (const [key, value] of Object.entries((object['data'] ?? {}) as Record<string, string>)) out.set(key, Buffer.from(value, 'base64'));
    for (const [key, value] of Object.entries((object['stringData'] ?? {}) as Record<string, string>)) out.set(key, encoder.encode(value));
  }
  return out;
}

/** ObjectCache: one read per object for one build (env and volumes often name the same ConfigMap). */
export class ObjectCache {
  private readonly objects = new Map<string, Promise<Record<string, unknown> | undefined>>();
  constructor(
    readonly reader: ClusterReader,
    readonly namespace: string,
  ) {}

  get(resource: string, name: string, namespace = this.namespace): Promise<Record<string, unknown> | undefined> {
    const key = `${resource}/${namespace}/${name}`;
    let object = this.objects.get(key);
    if (!object) {
      object = this.reader.get(resource, namespace, name);
      this.objects.set(key, object);
    }
    return object;
  }

  /** keys: the key → bytes of a ConfigMap or Secret, or undefined when it does not exist. */
  async keys(resource: 'configmaps' | 'secrets', name: string): Promise<Map<string, Uint8Array> | undefined> {
    const object = await this.get(resource, name);
    return object ? keyValues(resource, object) : undefined;
  }
}
