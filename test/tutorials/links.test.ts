/**
 * The tutorials and docs/concepts.md link to each other by file and anchor
 * (`../concepts.md#level-triggered`); a renamed heading or a missing page must fail here,
 * not leave a learner on a dead link.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TUTORIALS_DIR } from './tutorial.js';

const DOCS = resolve(TUTORIALS_DIR, '..');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors a markdown file defines: its headings' slugs and explicit `<a id="…">`s. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const found = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+)$/gm)) found.add(slug(heading!));
  for (const [, id] of text.matchAll(/<a id="([^"]+)"><\/a>/g)) found.add(id!);
  return found;
}

/** Relative markdown links of a file, outside code blocks: [text](target). */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

const pages = [
  join(DOCS, 'concepts.md'),
  ...readdirSync(TUTORIALS_DIR)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(TUTORIALS_DIR, f)),
];

describe('links between the tutorials and concepts.md', () => {
  it('computes GitHub anchors', () => {
    expect(slug('Observe, diff, act')).toBe('observe-diff-act');
    expect(slug('Generation and observedGeneration')).toBe('generation-and-observedgeneration');
    expect(slug('The resource did not move; the loops did')).toBe('the-resource-did-not-move-the-loops-did');
  });

  it.each(pages.map((page) => [page.slice(DOCS.length + 1), page]))('%s links only to pages and anchors that exist', (_name, page) => {
    const broken: string[] = [];
    for (const target of links(page)) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : resolve(dirname(page), path);
      if (!existsSync(file)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${target}: no such anchor`);
    }
    expect(broken).toEqual([]);
  });

  it('lists every tutorial in the README, in order', () => {
    const readme = readFileSync(join(TUTORIALS_DIR, 'README.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| (\d\d) \| \[[^\]]+\]\((\d\d-[a-z-]+\.md)\)/gm)].map((m) => `${m[1]} ${m[2]}`);
    const tutorials = readdirSync(TUTORIALS_DIR)
      .filter((f) => /^\d\d-.*\.md$/.test(f))
      .sort();
    expect(tutorials.length).toBeGreaterThanOrEqual(10);
    expect(listed).toEqual(tutorials.map((file) => `${file.slice(0, 2)} ${file}`));
  });
});
