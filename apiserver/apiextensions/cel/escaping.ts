/**
 * Kubernetes' escaping of property names into CEL identifiers (k8s.io/apiserver/pkg/cel
 * escaping.go): `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`,
 * and a name that is a CEL reserved word becomes `__<word>__`. Names with other characters, or
 * starting with a digit, cannot be escaped and are not accessible from CEL.
 */

import { RESERVED_WORDS } from './parser.js';

/** The words CEL reserves: its literals and the grammar's reserved identifiers. */
const RESERVED = new Set(['true', 'false', 'null', 'in', ...RESERVED_WORDS]);

const ESCAPES: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };
const UNESCAPES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** escapeName is the CEL identifier for a property name, or undefined when it has none. */
export function escapeName(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name) || !/^[A-Za-z0-9_.\-/]+$/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  return name.replace(/__|[.\-/]/g, (m) => ESCAPES[m]!);
}

/** unescapeName inverts escapeName; undefined for malformed escape sequences. */
export function unescapeName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    const plain = UNESCAPES[inner];
    if (plain !== undefined) return plain;
    if (RESERVED.has(inner) && m.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
