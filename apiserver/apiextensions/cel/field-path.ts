/**
 * A rule's `fieldPath` (`.spec.x`, `.labels['app.kubernetes.io/name']`, `['a-b']`) resolved
 * against the schema node the rule is declared on and normalised as Kubernetes' ValidFieldPath
 * does: property names become `.name` children, additionalProperties keys become `[key]`.
 */
import { additionalOf, type StructuralLike } from './structural.js';

const SINGLE_QUOTE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** tokenizeFieldPath splits into '.', '[', ']' and the text between them; a single-quoted
 * string is one token. Shared with the CRD schema's fieldPath checks. */
export function tokenizeFieldPath(path: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i]!;
    if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      tokens.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j]!)) j++;
      tokens.push(path.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

function unquote(token: string | undefined): string | undefined {
  if (token === undefined || token.length < 2 || !token.startsWith("'") || !token.endsWith("'")) return undefined;
  let ok = true;
  const text = token.slice(1, -1).replace(/\\(.)/g, (_, c: string) => {
    const plain = SINGLE_QUOTE_ESCAPES[c];
    if (plain === undefined) ok = false;
    return plain ?? '';
  });
  return ok ? text : undefined;
}

/** normalizeFieldPath returns the field.Path text of a rule's fieldPath relative to `schema`
 * (`spec.x`, `labels[app]`), or undefined when it names no field of the schema. */
export function normalizeFieldPath(fieldPath: string, schema: StructuralLike): string | undefined {
  const tokens = tokenizeFieldPath(fieldPath);
  let node: StructuralLike | undefined = schema;
  let out = '';
  for (let i = 0; i < tokens.length; i++) {
    let name: string | undefined;
    if (tokens[i] === '.') name = tokens[++i];
    else if (tokens[i] === '[') {
      name = unquote(tokens[++i]);
      if (tokens[++i] !== ']') return undefined;
    } else return undefined;
    if (name === undefined || node === undefined) return undefined;
    if (node.properties !== undefined) {
      node = node.properties[name];
      if (node === undefined) return undefined;
      out = out === '' ? name : `${out}.${name}`;
    } else if (node.additionalProperties !== undefined) {
      node = additionalOf(node) ?? {};
      out = `${out}[${name}]`;
    } else return undefined;
  }
  return out;
}
