/**
 * The import rules of STYLE.md §3.1, enforced: components talk through the API, so
 * controllers/scheduler/kubelet-sim never reach into the API server or the store, and the
 * store knows nothing of the API server.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TOP_LEVEL = ['store', 'apiserver', 'controllers', 'scheduler', 'kubelet-sim', 'cli'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts') && !entry.endsWith('.case.ts')) out.push(path);
  }
  return out;
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(ROOT, resolve(dirname(file), s)));
}

/** violation says why `from` may not import `to`, or undefined when it may. */
function violation(from: string, to: string): string | undefined {
  const inside = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (inside(from, 'store') && !inside(to, 'store')) return 'store/ imports nothing of ours';
  if (inside(from, 'apiserver/api') && !inside(to, 'apiserver/api')) return 'apiserver/api/ imports only itself';
  const isComponent = ['controllers', 'scheduler', 'kubelet-sim'].some((c) => inside(from, c));
  if (isComponent && inside(to, 'apiserver') && !inside(to, 'apiserver/api')) return 'components reach the API server only over HTTP';
  if (isComponent && inside(to, 'store')) return 'components never open the store';
  if (!inside(from, 'controllers') && !inside(from, 'cli') && inside(to, 'controllers') && !inside(to, 'controllers/runtime')) {
    return 'only controllers/runtime is shared outside controllers/';
  }
  return undefined;
}

describe('architecture', () => {
  const files = TOP_LEVEL.flatMap((dir) => {
    try {
      return sourceFiles(join(ROOT, dir));
    } catch {
      return [];
    }
  });

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('keeps every import inside the allowed dependency graph', () => {
    const problems = files.flatMap((file) => {
      const from = relative(ROOT, file);
      return relativeImports(file).flatMap((to) => {
        const why = violation(from, to);
        return why ? [`${from} → ${to}: ${why}`] : [];
      });
    });
    expect(problems).toEqual([]);
  });

  it('flags a forbidden import (the rule itself can fail)', () => {
    expect(violation('controllers/replicaset/reconcile.ts', 'apiserver/server.ts')).toBeDefined();
    expect(violation('store/types.ts', 'apiserver/api/meta.ts')).toBeDefined();
    expect(violation('controllers/replicaset/reconcile.ts', 'apiserver/api/meta.ts')).toBeUndefined();
  });
});
