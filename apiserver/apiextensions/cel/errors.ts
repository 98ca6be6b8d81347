/**
 * Errors of the CEL interpreter. CEL treats runtime errors as values that `&&`, `||` and the
 * comprehension macros may absorb; here they are exceptions (CelEvalError) that those operators
 * catch, which gives the same results with less bookkeeping.
 */

/** SourceLocation is a 1-based line and 0-based column in the expression text. */
export interface SourceLocation {
  line: number;
  column: number;
}

/** CelIssue is one compile-time problem at an offset of the expression. */
export interface CelIssue {
  offset: number;
  message: string;
}

/** CelError is the base of every error this package throws; `message` is cel-go's wording. */
export class CelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CelError';
  }
}

/** CelCompileError reports parse and type-check issues, rendered as cel-go's issues.String():
 * `ERROR: <input>:1:6: Syntax error: ...` followed by the source line and a caret. */
export class CelCompileError extends CelError {
  readonly issues: readonly CelIssue[];

  constructor(source: string, issues: readonly CelIssue[]) {
    super(issues.map((issue) => renderIssue(source, issue)).join('\n'));
    this.name = 'CelCompileError';
    this.issues = issues;
  }
}

/** CelEvalError is a runtime error value ("no such key: x", "division by zero", ...). */
export class CelEvalError extends CelError {
  constructor(message: string) {
    super(message);
    this.name = 'CelEvalError';
  }
}

/** CelCostError is thrown when an evaluation exceeds its cost limit; it is never absorbed by
 * `&&`, `||` or comprehensions, as cel-go's cancellation is not. */
export class CelCostError extends CelError {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
    this.name = 'CelCostError';
  }
}

/** NO_SUCH_OVERLOAD is the runtime error for calls whose arguments match no overload. */
export const NO_SUCH_OVERLOAD = 'no such overload';

/** noSuchOverload builds the runtime "no such overload" error. */
export function noSuchOverload(): CelEvalError {
  return new CelEvalError(NO_SUCH_OVERLOAD);
}

/** locate turns an offset into a line (1-based) and column (0-based, in code points). */
export function locate(source: string, offset: number): SourceLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: [...source.slice(lineStart, offset)].length };
}

/** Renders one issue as cel-go's Error.ToDisplayString does. */
function renderIssue(source: string, issue: CelIssue): string {
  const { line, column } = locate(source, issue.offset);
  const header = `ERROR: <input>:${line}:${column + 1}: ${issue.message}`;
  const snippet = source.split('\n')[line - 1];
  if (snippet === undefined) return header;
  const chars = [...snippet.replace(/\t/g, ' ')];
  const dots = chars.slice(0, column).map((c) => (c.length > 1 || c.charCodeAt(0) > 0x7f ? '\uff0e' : '.'));
  const caretChar = chars[column];
  const caret = caretChar !== undefined && (caretChar.length > 1 || caretChar.charCodeAt(0) > 0x7f) ? '\uff3e' : '^';
  return `${header}\n | ${chars.join('')}\n | ${dots.join('')}${caret}`;
}
