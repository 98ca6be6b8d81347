/**
 * Completion-index bookkeeping of Indexed Jobs, as Kubernetes keeps it: `status.completedIndexes`
 * is a compressed, sorted interval list (`1,3-5,7`); the index of a pod is its
 * `batch.kubernetes.io/job-completion-index` annotation. Pure.
 */

/** parseIndexes reads an interval list (`1,3-5`) into a sorted set of indexes below
 * `completions`; malformed parts are skipped, as the controller must not crash on them. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const result = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    const [from, to = from] = part.split('-').map((n) => Number.parseInt(n, 10));
    if (from === undefined || to === undefined || Number.isNaN(from) || Number.isNaN(to)) continue;
    for (let i = from; i <= to && i < completions; i++) result.add(i);
  }
  return result;
}

/** formatIndexes writes a set of indexes as an interval list: [1,3,4,5,7] → `1,3-5,7`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** missingIndexes returns, lowest first, the indexes in [0, completions) that are neither
 * completed nor held by an active pod, at most `limit` of them. */
export function missingIndexes(options: { completions: number; completed: ReadonlySet<number>; active: ReadonlySet<number>; limit: number }): number[] {
  const result: number[] = [];
  for (let i = 0; i < options.completions && result.length < options.limit; i++) {
    if (!options.completed.has(i) && !options.active.has(i)) result.push(i);
  }
  return result;
}
