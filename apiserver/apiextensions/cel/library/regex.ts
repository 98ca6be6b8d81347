/**
 * Regular expressions: the standard matches() and Kubernetes' regex library (find, findAll).
 * Patterns are RE2 syntax, run by our linear-time RE2 engine (apiserver/api/machinery/re2),
 * never by the backtracking JS RegExp engine, so hostile inputs cannot stall the server.
 * Compiled patterns are cached there.
 */

import { compileRe2 as compileRe2Shared, type Re2Program, RegexSyntaxError } from '../../../api/machinery/re2/compile.js';
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { T } from '../types.js';
import { CelList } from '../values.js';

/** compileRe2 compiles an RE2 pattern (cached); throws CelEvalError worded like Go's regexp
 * errors ("error parsing regexp: missing closing ): `(a`") when the pattern is invalid. */
export function compileRe2(pattern: string): Re2Program {
  try {
    return compileRe2Shared(pattern);
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw new CelEvalError(`error parsing regexp: ${err.message}`);
    throw err;
  }
}

/** isValidRe2 reports whether a pattern compiles (used to reject bad literal patterns early). */
export function isValidRe2(pattern: string): boolean {
  try {
    compileRe2(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Go's FindAllString: successive non-overlapping matches; an empty match right after the
 * previous match is skipped. A negative limit means all. */
function findAll(s: string, pattern: string, limit: number): CelList {
  const program = compileRe2(pattern);
  const chars = Array.from(s);
  const found: string[] = [];
  let prevEnd = -1;
  for (let pos = 0; pos <= chars.length && (limit < 0 || found.length < limit); ) {
    const m = program.find(chars, pos);
    if (m === undefined) break;
    const accept = !(m[1] === m[0] && m[0] === prevEnd);
    pos = m[1] === m[0] ? m[1] + 1 : m[1];
    prevEnd = m[1];
    if (accept) found.push(chars.slice(m[0], m[1]).join(''));
  }
  return new CelList(found);
}

function find(s: string, pattern: string): string {
  const chars = Array.from(s);
  const m = compileRe2(pattern).find(chars, 0);
  return m ? chars.slice(m[0], m[1]).join('') : '';
}

/** registerRegex adds matches, find and findAll to a registry. */
export function registerRegex(registry: FunctionRegistry): void {
  const matches = (s: string, p: string): boolean => compileRe2(p).test(s);
  // Linear-time matching costs about (input length × pattern size); charge in that proportion.
  const cost = (s: string, p: string): number => Math.ceil(s.length * 0.1) * Math.max(1, Math.ceil(p.length * 0.25));
  registry.add(
    'matches',
    member([T.string, T.string], T.bool, ([s, p], ctx) => (ctx.charge(cost(s as string, p as string)), matches(s as string, p as string))),
    global([T.string, T.string], T.bool, ([s, p], ctx) => (ctx.charge(cost(s as string, p as string)), matches(s as string, p as string))),
  );
  registry.add(
    'find',
    member([T.string, T.string], T.string, ([s, p], ctx) => (ctx.charge(cost(s as string, p as string)), find(s as string, p as string))),
  );
  registry.add(
    'findAll',
    member([T.string, T.string], T.list(T.string), ([s, p], ctx) => (ctx.charge(cost(s as string, p as string)), findAll(s as string, p as string, -1))),
    member(
      [T.string, T.string, T.int],
      T.list(T.string),
      ([s, p, n], ctx) => (ctx.charge(cost(s as string, p as string)), findAll(s as string, p as string, Number(n))),
    ),
  );
}
