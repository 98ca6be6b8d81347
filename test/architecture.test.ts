/**
 * The layering of the source tree, checked on every import. Arrows run one way only: the store
 * is at the bottom and knows no one; apiserver/api (types, machinery) is shared by everyone and
 * imports only itself; components (controllers, scheduler, kubelet-sim) reach the API server
 * over HTTP, never its code; the API server never imports controllers; and control loops do not
 * import each other (shared loop logic lives in controllers/runtime), so each controller process
 * loads only its own loops.
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
  if (inside(from, 'apiserver') && inside(to, 'controllers')) return 'the API server never imports controllers/ (shared code lives in apiserver/api/machinery)';
  if (!inside(from, 'controllers') && !inside(from, 'cli') && inside(to, 'controllers') && !inside(to, 'controllers/runtime')) {
    return 'only controllers/runtime is shared outside controllers/';
  }
  const fromLoop = loopOf(from);
  const toLoop = loopOf(to);
  if (fromLoop && toLoop && fromLoop !== toLoop) return 'control loops never import each other (share through controllers/runtime)';
  return undefined;
}

/** loopOf names the control loop a path belongs to (controllers/<loop>/…), or undefined for
 * controllers/runtime, the composition roots at controllers/ top level, and everything else. */
function loopOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'controllers' || parts.length < 3 || parts[1] === 'runtime') return undefined;
  return parts[1];
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

  it('flags the API server importing controllers, runtime included (the rule itself can fail)', () => {
    expect(violation('apiserver/server.ts', 'controllers/runtime/clock.ts')).toBeDefined();
    expect(violation('apiserver/kubesim/settle.ts', 'controllers/replicaset/reconcile.ts')).toBeDefined();
    expect(violation('apiserver/server.ts', 'apiserver/api/machinery/clock.ts')).toBeUndefined();
  });

  it('flags one control loop importing another (the rule itself can fail)', () => {
    expect(violation('controllers/daemonset/reconcile.ts', 'controllers/replicaset/pod-state.ts')).toBeDefined();
    expect(violation('controllers/daemonset/reconcile.ts', 'controllers/daemonset/status.ts')).toBeUndefined();
    expect(violation('controllers/daemonset/reconcile.ts', 'controllers/runtime/pods/pod-state.ts')).toBeUndefined();
    expect(violation('controllers/catalog.ts', 'controllers/daemonset/daemonset-controller.ts')).toBeUndefined();
    expect(violation('controllers/run-controllers.ts', 'controllers/replicaset/replicaset-controller.ts')).toBeUndefined();
  });
});
