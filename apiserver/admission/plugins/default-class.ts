/**
 * newestDefaultClass: the class DefaultStorageClass and DefaultIngressClass give an object that
 * names none — of the classes marked default, the newest (by creationTimestamp), ties going
 * to the first name, as kube picks when a race or a migration left several defaults.
 */
import type { RegistryContext } from '../../registry/context.js';

interface ClassMeta {
  metadata: { name?: string; creationTimestamp?: string; annotations?: Record<string, string> };
}

export function newestDefaultClass<T extends ClassMeta>(ctx: RegistryContext, resource: string, isDefault: (c: T) => boolean): T | undefined {
  const defaults = (ctx.store.list({ resource }).items as unknown as T[]).filter(isDefault);
  defaults.sort((a, b) => {
    const byTime = Date.parse(b.metadata.creationTimestamp ?? '') - Date.parse(a.metadata.creationTimestamp ?? '');
    return byTime !== 0 && !Number.isNaN(byTime) ? byTime : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
  });
  return defaults[0];
}
