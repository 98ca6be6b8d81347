/**
 * The processes of ReplicaSet, Deployment, HPA and the scheduler load no zod and no kind
 * schema: they address kinds through controllers/runtime/kinds.ts (docs/adding-a-kind.md).
 * One value import of a definition or a schema helper would add 5–15 MB to each process;
 * this test names the import that did it.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '..', 'dist');

// A module-resolution hook that prints every import of zod and who made it.
const HOOK = `
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const parent = context.parentURL ?? '';
  if (result.url.includes('/node_modules/zod/') && !parent.includes('/node_modules/zod/')) console.log('ZOD ' + parent);
  return result;
}`;
const REGISTER = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));`;

function zodImporters(entries: string[]): string[] {
  const script = entries.map((entry) => `await import(${JSON.stringify(resolve(DIST, entry))});`).join('\n');
  const out = execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.startsWith('ZOD '))
    .map((line) => line.slice(4).replace(`file://${DIST}/`, ''));
}

it('the replicaset, deployment, hpa and scheduler processes import no zod', () => {
  const entries = [
    'cli/commands/controller.js',
    'cli/commands/scheduler.js',
    'controllers/replicaset/index.js',
    'controllers/deployment/index.js',
    'controllers/hpa/index.js',
    'controllers/runtime/manager.js',
    'scheduler/index.js',
  ];
  expect(zodImporters(entries)).toEqual([]);
});

it('the check sees an import of zod (it can fail)', () => {
  expect(zodImporters(['apiserver/api/core/pod.js'])).toContain('apiserver/api/core/pod.js');
});
