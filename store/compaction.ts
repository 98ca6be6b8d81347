/**
 * The compaction policy every store applies: its default and how a partial one is merged
 * over it (see CompactionPolicy in types.ts).
 */
import type { CompactionPolicy } from './types.js';

/** DefaultCompactionPolicy keeps 10 000 revisions and five minutes of history. */
export const DefaultCompactionPolicy: Readonly<CompactionPolicy> = {
  keepRevisions: 10_000,
  maxAgeMs: 5 * 60_000,
};

/** mergePolicy lays the defined fields of each partial policy over `base`, in order: keys set
 * to undefined do not erase what is below them. */
export function mergePolicy(base: Readonly<CompactionPolicy>, ...partials: Array<Partial<CompactionPolicy> | undefined>): CompactionPolicy {
  const merged = { ...base };
  for (const partial of partials) {
    for (const [key, value] of Object.entries(partial ?? {})) {
      if (value !== undefined) merged[key as keyof CompactionPolicy] = value as number;
    }
  }
  return merged;
}
