/**
 * Helpers for table-driven CEL tests: every case is an expression and either the value it must
 * produce (compared after conversion to plain JS) or a fragment of the error it must raise.
 */
import { expect } from 'vitest';
import { evaluate } from '../index.js';
import { CelList, CelMap, CelOptional, CelUint, type CelValue } from '../values.js';

/** toPlain turns a CEL value into plain JS for assertions: lists → arrays, maps → objects,
 * uints → `{ uint: bigint }`, optionals → `{ optional: value | null }`; others unchanged. */
export function toPlain(v: CelValue): unknown {
  if (v instanceof CelList) return v.items.map(toPlain);
  if (v instanceof CelMap) return Object.fromEntries(v.keys().map((k) => [String(k), toPlain(v.get(k)!)]));
  if (v instanceof CelUint) return { uint: v.value };
  if (v instanceof CelOptional) return { optional: v.hasValue() ? toPlain(v.value!) : null };
  return v;
}

/** expectValue evaluates an expression and compares its plain value. */
export function expectValue(expression: string, expected: unknown, vars: Record<string, unknown> = {}): void {
  expect(toPlain(evaluate(expression, vars) as CelValue), expression).toEqual(expected);
}

/** expectError evaluates an expression and expects an error whose message contains `fragment`. */
export function expectError(expression: string, fragment: string, vars: Record<string, unknown> = {}): void {
  expect(() => evaluate(expression, vars), expression).toThrow(fragment);
}
