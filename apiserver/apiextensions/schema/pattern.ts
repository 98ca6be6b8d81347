/**
 * `pattern` keywords are Go (RE2) regular expressions. They are compiled and run by the
 * linear-time RE2 engine (apiserver/api/machinery/re2), as CEL's matches() is, so a hostile
 * pattern or value cannot stall the server; compile errors read as Go's regexp package words
 * them (`error parsing regexp: missing argument to repetition operator: `+``).
 */
import { compileRe2, type Re2Program, RegexSyntaxError } from '../../api/machinery/re2/compile.js';

/** compileGoRegexp returns the compiled pattern, or Go's error message when it is invalid. */
export function compileGoRegexp(pattern: string): Re2Program | string {
  try {
    return compileRe2(pattern);
  } catch (err) {
    if (err instanceof RegexSyntaxError) return `error parsing regexp: ${err.message}`;
    throw err;
  }
}
