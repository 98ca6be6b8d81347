/**
 * What the "whole built-in API" acceptance tests (issue 16, "Done when") compare kubesim with:
 * the golden `kubectl api-resources -o wide` of a Kubernetes 1.33 cluster and the chart-style
 * bundle of one object per creatable kind (test/kubectl/fixtures), minus NOT_YET_SERVED.
 * test/kubectl/api-resources.test.ts, test/kubectl/bundle.test.ts and
 * test/clients/every-kind.test.ts all read them from here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * NOT_YET_SERVED: kinds of a 1.33 cluster that kubesim does not serve yet, keyed
 * `apiVersion/Kind` (empty: every kind is served, apart from the differences listed in
 * test/kubectl/api-resources.test.ts). While a kind is listed, the api-resources test expects
 * its row to be missing and the bundle and client tests leave its objects out; the tests fail
 * while a served kind is still listed, so the list cannot go stale.
 */
export const NOT_YET_SERVED: readonly string[] = [];

const FIXTURES = resolve(import.meta.dirname, '../kubectl/fixtures');

/** A Kubernetes object as the bundle ships it. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** kindKey is how NOT_YET_SERVED and the api-resources rows name a kind: `apiVersion/Kind`. */
export const kindKey = (object: { apiVersion: string; kind: string }) => `${object.apiVersion}/${object.kind}`;

/** isServed: false for a kind still in NOT_YET_SERVED. */
export const isServed = (object: { apiVersion: string; kind: string }) => !NOT_YET_SERVED.includes(kindKey(object));

/** bundleObjects is every document of fixtures/bundle.yaml, in order. */
export function bundleObjects(): ManifestObject[] {
  const text = readFileSync(resolve(FIXTURES, 'bundle.yaml'), 'utf8');
  return parseAllDocuments(text).map((document) => document.toJS() as ManifestObject);
}

/** servedBundleObjects is the bundle without the objects of NOT_YET_SERVED kinds. */
export const servedBundleObjects = (): ManifestObject[] => bundleObjects().filter(isServed);

/** One row of `kubectl api-resources -o wide`. */
export interface ApiResourceRow {
  name: string;
  shortNames: string;
  apiVersion: string;
  namespaced: string;
  kind: string;
  verbs: string;
  categories: string;
}

/**
 * parseApiResources reads `kubectl api-resources -o wide` output (or the golden file, whose
 * `#` lines are comments). Columns are cut at the header's column starts: SHORTNAMES and
 * CATEGORIES may be empty, so splitting on spaces would shift the cells.
 */
export function parseApiResources(text: string): ApiResourceRow[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const header = lines.shift() ?? '';
  const columns = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES'];
  const starts = columns.map((column) => header.indexOf(column));
  if (starts.some((start) => start < 0)) throw new Error(`not an api-resources -o wide header: ${header}`);
  const cell = (line: string, i: number) => line.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : undefined).trim();
  return lines.map((line) => ({
    name: cell(line, 0),
    shortNames: cell(line, 1),
    apiVersion: cell(line, 2),
    namespaced: cell(line, 3),
    kind: cell(line, 4),
    verbs: cell(line, 5),
    categories: cell(line, 6),
  }));
}

/** goldenApiResources: the rows of a 1.33 cluster's `kubectl api-resources -o wide`. */
export function goldenApiResources(): ApiResourceRow[] {
  return parseApiResources(readFileSync(resolve(FIXTURES, 'api-resources-1.33.txt'), 'utf8'));
}
