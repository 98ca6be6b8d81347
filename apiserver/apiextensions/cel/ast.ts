/**
 * The parsed form of a CEL expression. Operators are calls with cel-go's internal names
 * (`_+_`, `_&&_`, `@in`, `_[_]`, ...), so the checker and the interpreter treat them like any
 * other function; macros (all, exists, map, filter, ...) keep their own node kind instead of
 * being expanded into raw comprehensions. `offset` points where cel-go reports errors: the
 * operator, the `(` of a call, the `.` of a selection, the start of a literal or identifier.
 */
import type { CelValue } from './values.js';

interface Node {
  /** Unique within one parsed expression. */
  id: number;
  offset: number;
}

/** LiteralExpr is a constant: int, uint, double, string, bytes, bool or null. */
export interface LiteralExpr extends Node {
  kind: 'literal';
  value: CelValue;
}

/** IdentExpr is a variable or type name. */
export interface IdentExpr extends Node {
  kind: 'ident';
  /** A plain or qualified name (`self`, `google.protobuf.Timestamp`). */
  name: string;
}

/** SelectExpr is `operand.field`, `operand.?field` (optional) or `has(operand.field)` (testOnly). */
export interface SelectExpr extends Node {
  kind: 'select';
  operand: Expr;
  field: string;
  testOnly: boolean;
  optional: boolean;
}

/** CallExpr is a global call `fn(args)` or a receiver call `target.fn(args)`. */
export interface CallExpr extends Node {
  kind: 'call';
  fn: string;
  target?: Expr;
  args: Expr[];
}

/** ListExpr is a list literal `[a, ?b]`. */
export interface ListExpr extends Node {
  kind: 'list';
  elements: Expr[];
  /** optional[i] marks `[?e]` elements, included only when the optional has a value. */
  optional: boolean[];
}

/** MapEntry is one `key: value` of a map literal. */
export interface MapEntry {
  key: Expr;
  value: Expr;
  /** `{?k: v}`: the entry is present only when the optional v has a value. */
  optional: boolean;
  offset: number;
}

/** MapExpr is a map literal `{k: v}`. */
export interface MapExpr extends Node {
  kind: 'map';
  entries: MapEntry[];
}

/** MacroName lists the comprehension macros the parser recognises. */
export type MacroName =
  | 'all'
  | 'exists'
  | 'exists_one'
  | 'map'
  | 'filter'
  | 'transformList'
  | 'transformMap'
  | 'transformMapEntry'
  | 'sortBy'
  | 'optMap'
  | 'optFlatMap';

/** ComprehensionExpr is a macro over `range`, binding iterVar (and iterVar2 for the two-variable
 * forms: index/key then value). `args` are the remaining expressions: [predicate] for all/exists,
 * [transform] or [filter, transform] for map/transform*, [key] for sortBy. */
export interface ComprehensionExpr extends Node {
  kind: 'comprehension';
  macro: MacroName;
  range: Expr;
  iterVar: string;
  iterVar2?: string;
  args: Expr[];
}

/** Expr is any expression node. */
export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | ComprehensionExpr;

/** referencesIdent reports whether an expression reads the free variable `name` (not one
 * shadowed by a comprehension variable of the same name). */
export function referencesIdent(expr: Expr, name: string): boolean {
  switch (expr.kind) {
    case 'literal':
      return false;
    case 'ident':
      return expr.name === name;
    case 'select':
      return referencesIdent(expr.operand, name);
    case 'call':
      return (expr.target !== undefined && referencesIdent(expr.target, name)) || expr.args.some((a) => referencesIdent(a, name));
    case 'list':
      return expr.elements.some((e) => referencesIdent(e, name));
    case 'map':
      return expr.entries.some((e) => referencesIdent(e.key, name) || referencesIdent(e.value, name));
    case 'comprehension':
      if (referencesIdent(expr.range, name)) return true;
      if (expr.iterVar === name || expr.iterVar2 === name) return false;
      return expr.args.some((a) => referencesIdent(a, name));
  }
}
