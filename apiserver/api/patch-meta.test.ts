/**
 * The patch metadata of every built-in kind, field by field, against Kubernetes' own
 * declarations (testdata/k8s-patch-strategies.txt, taken from k8s.io/api's struct tags):
 * strategic merge patch's strategy and merge key, server-side apply's list type and keys,
 * and atomic structs. A field kubesim declares differently, or forgets, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinDefinitions } from './builtin.js';
import { type SchemaDocument, type SchemaNode, schemaDocumentOf } from './schema-node.js';

const GOLDEN = new URL('./testdata/k8s-patch-strategies.txt', import.meta.url);
const REF_PREFIX = '#/definitions/';
const MAX_DEPTH = 14;

/** Extensions declared at a use site and the definitions it leads to (use site first). */
function resolve(raw: SchemaNode, doc: SchemaDocument): { node: SchemaNode; ext: Record<string, unknown> } {
  const ext: Record<string, unknown> = {};
  let node = raw;
  for (let hops = 0; hops < 32; hops++) {
    for (const [key, value] of Object.entries(node)) if (key.startsWith('x-kubernetes-') && !(key in ext)) ext[key] = value;
    const next = node.$ref?.startsWith(REF_PREFIX)
      ? doc.definitions[node.$ref.slice(REF_PREFIX.length)]
      : !node.properties && node.allOf?.length === 1
        ? node.allOf[0]
        : undefined;
    if (!next) break;
    node = next;
  }
  return { node, ext };
}

/** describe renders one field's declarations in the golden file's notation. */
function describeField(ext: Record<string, unknown>, element: Record<string, unknown>): string {
  const parts: string[] = [];
  const listType = ext['x-kubernetes-list-type'];
  if (ext['x-kubernetes-patch-strategy']) parts.push(`patch=${String(ext['x-kubernetes-patch-strategy'])}`);
  if (ext['x-kubernetes-patch-merge-key']) parts.push(`key=${String(ext['x-kubernetes-patch-merge-key'])}`);
  if (listType && (listType !== 'atomic' || ext['x-kubernetes-patch-strategy'])) parts.push(`list=${String(listType)}`);
  if (Array.isArray(ext['x-kubernetes-list-map-keys'])) parts.push(`keys=${ext['x-kubernetes-list-map-keys'].join(',')}`);
  if (ext['x-kubernetes-map-type'] === 'atomic' || element['x-kubernetes-map-type'] === 'atomic') parts.push('map=atomic');
  return parts.join(' ');
}

function collect(node: SchemaNode, doc: SchemaDocument, path: string, depth: number, out: Map<string, string>): void {
  if (depth > MAX_DEPTH) return;
  for (const [key, raw] of Object.entries(resolve(node, doc).node.properties ?? {})) {
    const { node: field, ext } = resolve(raw, doc);
    const inner = field.items ?? (typeof field.additionalProperties === 'object' ? field.additionalProperties : undefined);
    const element = inner ? resolve(inner, doc).ext : {};
    const declared = describeField(ext, element);
    if (declared) out.set(`${path}.${key}`, declared);
    collect(inner ?? raw, doc, `${path}.${key}`, depth + 1, out);
  }
}

/** kubesimDeclarations collects the declarations of the kinds the golden file covers (a
 * kind added later is compared once its Kubernetes declarations are added there). */
function kubesimDeclarations(kinds: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const def of builtinDefinitions()) {
    if (!kinds.has(`${def.kind}.${def.version}`)) continue;
    const doc = schemaDocumentOf(def.schema);
    collect(doc.root, doc, `${def.kind}.${def.version}`, 0, out);
  }
  return out;
}

function kubernetesDeclarations(): Map<string, string> {
  const lines = readFileSync(GOLDEN, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
  return new Map(lines.map((line) => line.split(': ') as [string, string]));
}

describe("patch metadata against Kubernetes' struct tags", () => {
  it('declares what Kubernetes declares, field by field, and nothing else', () => {
    const theirs = kubernetesDeclarations();
    const kinds = new Set([...theirs.keys()].map((path) => path.split('.').slice(0, 2).join('.')));
    const ours = kubesimDeclarations(kinds);
    const differences = [...new Set([...ours.keys(), ...theirs.keys()])]
      .filter((path) => ours.get(path) !== theirs.get(path))
      .map((path) => `${path}: kubesim "${ours.get(path) ?? ''}", Kubernetes "${theirs.get(path) ?? ''}"`);
    expect(differences).toEqual([]);
    expect(theirs.size).toBeGreaterThan(200);
    // Every writable built-in kind is compared (the metrics.k8s.io kinds are read-only).
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['Deployment.v1', 'HorizontalPodAutoscaler.v1', 'HorizontalPodAutoscaler.v2', 'Pod.v1', 'Service.v1']),
    );
  });
});
