/** The syntax tree of the userland's POSIX-like shell. */

/** One piece of a word: literal text, a parameter or a command substitution; `quoted` parts are
 * not split into fields nor globbed. */
export type WordPart =
  | { readonly kind: 'lit'; readonly text: string; readonly quoted: boolean }
  | { readonly kind: 'param'; readonly name: string; readonly quoted: boolean; readonly op?: ParamOp }
  | { readonly kind: 'sub'; readonly script: string; readonly quoted: boolean }
  | { readonly kind: 'arith'; readonly expression: string; readonly quoted: boolean };

/** `${name:-word}` and friends. */
export interface ParamOp {
  readonly colon: boolean;
  readonly op: '-' | '=' | '+' | '?' | '#';
  readonly word: Word;
}

export type Word = readonly WordPart[];

export interface Redirect {
  readonly fd: number;
  readonly op: '<' | '>' | '>>' | '>&' | '<&';
  readonly target: Word;
}

export interface Assignment {
  readonly name: string;
  readonly value: Word;
}

export type Command =
  | {
      readonly kind: 'simple';
      readonly assigns: readonly Assignment[];
      readonly words: readonly Word[];
      readonly redirects: readonly Redirect[];
      readonly line: number;
    }
  | { readonly kind: 'if'; readonly branches: ReadonlyArray<readonly [List, List]>; readonly otherwise?: List; readonly redirects: readonly Redirect[] }
  | { readonly kind: 'while'; readonly until: boolean; readonly condition: List; readonly body: List; readonly redirects: readonly Redirect[] }
  | { readonly kind: 'for'; readonly name: string; readonly items?: readonly Word[]; readonly body: List; readonly redirects: readonly Redirect[] }
  | { readonly kind: 'group'; readonly subshell: boolean; readonly body: List; readonly redirects: readonly Redirect[] };

export interface Pipeline {
  readonly negate: boolean;
  readonly commands: readonly Command[];
}

export interface AndOr {
  readonly first: Pipeline;
  readonly rest: ReadonlyArray<{ readonly op: '&&' | '||'; readonly pipeline: Pipeline }>;
}

export interface List {
  readonly items: ReadonlyArray<{ readonly command: AndOr; readonly background: boolean }>;
}
