/**
 * The one way the API server compiles a regular expression that a user wrote (CRD `pattern`
 * keywords, CEL's matches()/find(), fault-rule matches): RE2 syntax, run by the linear-time
 * engine in program.ts, so no pattern and input can make the server backtrack for minutes.
 * JavaScript's RegExp is kept for the server's own fixed patterns only.
 */
import { Re2Program } from './program.js';
import { RegexSyntaxError } from './syntax.js';

export { Re2Program } from './program.js';
export { RegexSyntaxError } from './syntax.js';

const CACHE_LIMIT = 1000;
const cache = new Map<string, Re2Program | RegexSyntaxError>();

/**
 * compileRe2 compiles an RE2 pattern, remembering the result (valid or not) for the next
 * caller. Throws RegexSyntaxError, worded as Go's regexp/syntax words it
 * (`missing closing ): \`(a\``), for an invalid pattern.
 */
export function compileRe2(pattern: string): Re2Program {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compileUncached(pattern);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, compiled);
  }
  if (compiled instanceof RegexSyntaxError) throw compiled;
  return compiled;
}

function compileUncached(pattern: string): Re2Program | RegexSyntaxError {
  try {
    return new Re2Program(pattern);
  } catch (err) {
    if (err instanceof RegexSyntaxError) return err;
    throw err;
  }
}
