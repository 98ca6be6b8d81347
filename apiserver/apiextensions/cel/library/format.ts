/**
 * `'<template>'.format([args])` of cel-go's strings extension: %s, %d, %f, %e, %x, %X, %o, %b
 * and %%, with an optional precision (`%.2f`). Scientific notation is cel-go's ("3.140000×10⁰⁰").
 */

import { goQuote } from '../../../api/machinery/go-quote.js';
import { CelEvalError } from '../errors.js';
import { CelDuration, CelList, CelMap, CelTimestamp, CelTypeValue, CelUint, type CelValue, typeNameOf } from '../values.js';
import { toCelString } from './conversions.js';

const fail = (message: string): CelEvalError => new CelEvalError(`error during formatting: ${message}`);

/** formatString applies a format template to arguments; throws CelEvalError on a bad verb, a
 * missing argument or an argument of the wrong type. */
export function formatString(template: string, args: readonly CelValue[]): string {
  let out = '';
  let next = 0;
  const verb = /%(?:\.(\d+))?([a-zA-Z%])/y;
  for (let i = 0; i < template.length; ) {
    if (template[i] !== '%') {
      out += template[i++];
      continue;
    }
    verb.lastIndex = i;
    const m = verb.exec(template);
    if (!m) throw fail('unexpected end of format string');
    i = verb.lastIndex;
    if (m[2] === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) throw fail(`index ${next} out of range`);
    out += formatArg(m[2]!, m[1] === undefined ? undefined : Number(m[1]), args[next++]!);
  }
  return out;
}

function formatArg(verb: string, precision: number | undefined, arg: CelValue): string {
  switch (verb) {
    case 's':
      return stringOf(arg);
    case 'd':
      return integerText(arg, 10);
    case 'f':
      return fixed(numberOf(arg, 'f'), precision ?? 6);
    case 'e':
      return scientific(numberOf(arg, 'e'), precision ?? 6);
    case 'x':
    case 'X': {
      const text = hexText(arg);
      return verb === 'X' ? text.toUpperCase() : text;
    }
    case 'o':
      return integerText(arg, 8);
    case 'b':
      return integerText(arg, 2);
    default:
      throw fail(`unrecognized formatting clause "${verb}"`);
  }
}

function stringOf(arg: CelValue, nested = false): string {
  if (typeof arg === 'string') return nested ? goQuote(arg) : arg;
  if (arg === null) return 'null';
  if (arg instanceof CelList) return `[${arg.items.map((v) => stringOf(v, true)).join(', ')}]`;
  if (arg instanceof CelMap) {
    const entries = arg.keys().map((k) => [stringOf(k, true), stringOf(arg.get(k)!, true)] as const);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${k}: ${v}`).join(', ')}}`;
  }
  if (arg instanceof CelTypeValue) return arg.name;
  if (typeof arg === 'number' && Number.isInteger(arg) && Math.abs(arg) < 1e21) return String(arg);
  return toCelString(arg);
}

function integerText(arg: CelValue, radix: number): string {
  if (typeof arg === 'bigint') return arg.toString(radix);
  if (arg instanceof CelUint) return arg.value.toString(radix);
  if (typeof arg === 'number' && radix === 10 && Number.isInteger(arg)) return String(arg);
  throw fail(`integer clause can only be used on integers, was given ${typeNameOf(arg)}`);
}

function numberOf(arg: CelValue, verb: string): number {
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'bigint') return Number(arg);
  if (arg instanceof CelUint) return Number(arg.value);
  if (arg instanceof CelDuration || arg instanceof CelTimestamp) throw fail(`${verb} clause can only be used on numbers`);
  throw fail(`${verb === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeNameOf(arg)}`);
}

function fixed(d: number, precision: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? 'Infinity' : '-Infinity';
  return d.toFixed(precision);
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

function scientific(d: number, precision: number): string {
  if (!Number.isFinite(d)) return fixed(d, precision);
  const [mantissa, exp] = d.toExponential(precision).split('e') as [string, string];
  const exponent = Number(exp);
  const digits = String(Math.abs(exponent))
    .padStart(2, '0')
    .replace(/\d/g, (c) => SUPERSCRIPT[Number(c)]!);
  return `${mantissa}×10${exponent < 0 ? '⁻' : ''}${digits}`;
}

function hexText(arg: CelValue): string {
  if (typeof arg === 'string') return [...new TextEncoder().encode(arg)].map((b) => b.toString(16).padStart(2, '0')).join('');
  if (arg instanceof Uint8Array) return [...arg].map((b) => b.toString(16).padStart(2, '0')).join('');
  if (typeof arg === 'bigint') return arg < 0n ? `-${(-arg).toString(16)}` : arg.toString(16);
  if (arg instanceof CelUint) return arg.value.toString(16);
  throw fail(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(arg)}`);
}
