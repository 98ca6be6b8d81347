/**
 * No two modules of apiserver/api import each other, even for types only, directly or
 * through others: a kind's schema, validation, columns and conversion live in one file
 * (docs/adding-a-kind.md), and a shared part's helpers import its types, not the reverse.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const API = resolve(import.meta.dirname);

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)[^'";]*?from\s+'(\.[^']+)'/g)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
}

/** circles lists one import path per module that can reach itself again. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  for (const start of graph.keys()) {
    const stack: Array<[string, string[]]> = [[start, [start]]];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const [node, path] = stack.pop()!;
      for (const next of graph.get(node) ?? []) {
        if (next === start) found.push([...path, next]);
        else if (!seen.has(next)) {
          stack.push([next, [...path, next]]);
          seen.add(next);
        }
      }
    }
  }
  return found;
}

describe('apiserver/api imports', () => {
  it('form no circles', () => {
    const graph = new Map(modules(API).map((file) => [file, importsOf(file)]));
    expect(circles(graph).map((path) => path.map((file) => relative(API, file)).join(' → '))).toEqual([]);
  });

  it('would report a circle (the check itself can fail)', () => {
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([
      ['a', 'b', 'a'],
      ['b', 'a', 'b'],
    ]);
  });
});
