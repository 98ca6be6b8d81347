/**
 * `kubectl api-resources -o wide` (kubectl 1.33) against kubesim, compared row by row — name,
 * short names, API version, namespaced, kind, verbs, categories — with the golden output of a
 * 1.33 cluster (fixtures/api-resources-1.33.txt), minus the differences listed below, each with
 * its reason, and the kinds still in NOT_YET_SERVED; then `kubectl explain` for every kind listed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResourceRow, goldenApiResources, kindKey, NOT_YET_SERVED, parseApiResources } from '../support/built-in-api.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

/** ONLY_IN_KUBESIM: rows kubesim serves that a bare 1.33 cluster does not, and why. */
const ONLY_IN_KUBESIM: Record<string, string> = {
  'metrics.k8s.io/v1beta1/NodeMetrics': 'kubesim serves resource metrics itself, as a cluster with metrics-server installed does',
  'metrics.k8s.io/v1beta1/PodMetrics': 'kubesim serves resource metrics itself, as a cluster with metrics-server installed does',
};

/** ONLY_IN_KUBERNETES: rows of a 1.33 cluster kubesim leaves out (besides NOT_YET_SERVED), and why. */
const ONLY_IN_KUBERNETES: Record<string, string> = {
  'v1/Binding':
    'the legacy top-level bindings resource (deprecated since 1.7): schedulers, kubesim`s included, bind through the pods/binding subresource, which is served',
};

// The golden file is kubectl 1.33's output: compare with the same client.
const binary = findKubectlBinaries().find((candidate) => candidate.minor === 33) ?? findKubectlBinaries()[0];
if (!binary) it('finds a kubectl binary', () => requireKubectl());

const byKey = (rows: ApiResourceRow[]) => new Map(rows.map((row) => [kindKey(row), row]));
const sorted = (rows: ApiResourceRow[]) => [...rows].sort((a, b) => kindKey(a).localeCompare(kindKey(b)));

describe.runIf(binary)(`${binary?.label}: api-resources -o wide as a 1.33 cluster`, () => {
  const k = useKubectlCluster(binary!);
  let served: ApiResourceRow[] = [];
  beforeAll(async () => {
    served = parseApiResources((await k.ok(['api-resources', '-o', 'wide'])).stdout);
  });

  it('lists the rows of the golden file, apart from the listed differences', () => {
    const expected = goldenApiResources().filter((row) => !NOT_YET_SERVED.includes(kindKey(row)) && !(kindKey(row) in ONLY_IN_KUBERNETES));
    expect(sorted(served.filter((row) => !(kindKey(row) in ONLY_IN_KUBESIM)))).toEqual(sorted(expected));
  });

  it('explains every kind it lists', async () => {
    // explain reads a dot as a field path: the resource's group goes in --api-version.
    const explain = async (row: ApiResourceRow) => {
      const { stdout } = await k.ok(['explain', row.name, `--api-version=${row.apiVersion}`]);
      return stdout.match(/^(GROUP|KIND|VERSION):.*$/gm)?.map((line) => line.replace(/\s+/g, ' '));
    };
    const heading = (row: ApiResourceRow) => {
      const [group, version] = row.apiVersion.includes('/') ? row.apiVersion.split('/') : ['', row.apiVersion];
      return [...(group ? [`GROUP: ${group}`] : []), `KIND: ${row.kind}`, `VERSION: ${version}`];
    };
    // A few at a time: one kubectl per kind, without waiting for each in turn.
    for (let start = 0; start < served.length; start += 8) {
      const batch = served.slice(start, start + 8);
      const explained = await Promise.all(batch.map(explain));
      expect(explained).toEqual(batch.map(heading));
    }
  }, 60_000);

  it('keeps the lists of differences current', () => {
    const servedKeys = byKey(served);
    const goldenKeys = byKey(goldenApiResources());
    expect(
      NOT_YET_SERVED.filter((key) => servedKeys.has(key)),
      'served now: remove these from NOT_YET_SERVED (test/support/built-in-api.ts)',
    ).toEqual([]);
    expect(
      NOT_YET_SERVED.filter((key) => !goldenKeys.has(key)),
      'NOT_YET_SERVED entries a 1.33 cluster does not serve either',
    ).toEqual([]);
    expect(
      Object.keys(ONLY_IN_KUBESIM).filter((key) => !servedKeys.has(key) || goldenKeys.has(key)),
      'ONLY_IN_KUBESIM entries that are no longer a difference',
    ).toEqual([]);
    expect(
      Object.keys(ONLY_IN_KUBERNETES).filter((key) => servedKeys.has(key) || !goldenKeys.has(key)),
      'ONLY_IN_KUBERNETES entries that are no longer a difference',
    ).toEqual([]);
  });
});
