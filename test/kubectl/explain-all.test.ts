/**
 * `kubectl explain` works for every resource the server lists in discovery, built-in kinds and
 * kubesim's own alike: each must have an OpenAPI schema that kubectl can find by its
 * group-version-kind. Run with the newest kubectl (explain reads /openapi/v3 the same way in
 * 1.31–1.33).
 */
import { expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { tableRows, useKubectlCluster } from './fixture.js';

const newest =
  findKubectlBinaries()
    .sort((a, b) => a.minor - b.minor)
    .at(-1) ?? requireKubectl();
const k = useKubectlCluster(newest);

/** How many kubectl processes run at once: enough to overlap their start-up on two cores. */
const PARALLEL = 4;

async function inBatches<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(each));
}

it(`${newest.label}: explain answers for every resource in api-resources`, async () => {
  const rows = tableRows((await k.ok(['api-resources', '--no-headers', '-o', 'wide'])).stdout);
  // Columns: NAME [SHORTNAMES] APIVERSION NAMESPACED KIND VERBS [CATEGORIES]; find APIVERSION by its slash or 'v1'.
  const resources = rows.map((cells) => {
    const versionAt = cells.findIndex((cell, i) => i > 0 && /^([a-z0-9.-]+\/)?v\d+((alpha|beta)\d+)?$/.test(cell));
    return { name: cells[0] ?? '', apiVersion: cells[versionAt] ?? '', kind: cells[versionAt + 2] ?? '' };
  });
  expect(resources.length).toBeGreaterThan(40);
  const failures: string[] = [];
  await inBatches(resources, async ({ name, apiVersion, kind }) => {
    // explain reads dots as a field path: the group goes in --api-version.
    const result = await k.run(['explain', name, '--api-version', apiVersion]);
    if (result.code !== 0 || !result.stdout.includes(`KIND:       ${kind}`))
      failures.push(`${name} ${apiVersion}: ${result.stderr.trim() || result.stdout.slice(0, 200)}`);
  });
  expect(failures).toEqual([]);
});
