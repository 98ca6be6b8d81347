/**
 * Compiling (parse + type check) and running CEL expressions against the standard
 * Kubernetes environment. A Program is immutable and may be run any number of times.
 */
import { type Expr, referencesIdent } from './ast.js';
import { check } from './checker.js';
import { CelCompileError } from './errors.js';
import type { FunctionRegistry } from './functions.js';
import { Evaluation, Scope } from './interpreter.js';
import { isQualifiedName, STANDARD_REGISTRY, TYPE_IDENTIFIERS } from './library/index.js';
import { parse } from './parser.js';
import { type CelType, T } from './types.js';
import type { CelValue } from './values.js';

/** PER_CALL_LIMIT is Kubernetes' cost limit for one evaluation of one expression. */
export const PER_CALL_LIMIT = 1_000_000;

/** Program is a compiled expression. */
export interface Program {
  source: string;
  ast: Expr;
  /** The inferred result type (dyn when unknown until runtime). */
  type: CelType;
  /** The functions it was compiled against, when not the standard environment's. */
  registry?: FunctionRegistry;
}

/** Environment extends the standard one: more functions (a registry built on
 * createStandardRegistry) and dotted variable names (`authorizer.requestResource`). */
export interface Environment {
  registry: FunctionRegistry;
  qualifiedVariables?: ReadonlySet<string>;
}

const TYPE_NAMES = new Set(TYPE_IDENTIFIERS.keys());

/** parseExpression parses with the standard environment's qualified names; throws CelCompileError. */
export function parseExpression(source: string): Expr {
  return parse(source, { isQualifiedName });
}

/** compile parses and type-checks an expression with the given variable types; throws
 * CelCompileError listing every issue. */
export function compile(source: string, variables: ReadonlyMap<string, CelType>, environment?: Environment): Program {
  const ast = environment ? parseIn(source, environment) : parseExpression(source);
  const registry = environment?.registry ?? STANDARD_REGISTRY;
  const { type, issues } = check(ast, { registry, variables, typeIdentifiers: TYPE_IDENTIFIERS });
  if (issues.length > 0) throw new CelCompileError(source, issues);
  return environment ? { source, ast, type, registry } : { source, ast, type };
}

function parseIn(source: string, environment: Environment): Expr {
  const { registry, qualifiedVariables } = environment;
  return parse(source, {
    isQualifiedName: (name) => isQualifiedName(name) || qualifiedVariables?.has(name) === true || (name.includes('.') && registry.has(name)),
  });
}

/** usesVariable reports whether a program reads a variable (e.g. oldSelf: a transition rule). */
export function usesVariable(program: Program, name: string): boolean {
  return referencesIdent(program.ast, name);
}

/** RunResult is a value and the cost spent computing it. */
export interface RunResult {
  value: CelValue;
  cost: number;
}

/** run evaluates a program. Throws CelEvalError for runtime errors and CelCostError when the
 * cost exceeds `costLimit`; `spent` receives the cost so far either way. */
export function run(program: Program, vars: ReadonlyMap<string, CelValue>, costLimit = PER_CALL_LIMIT, spent?: { cost: number }): RunResult {
  const evaluation = new Evaluation(program.registry ?? STANDARD_REGISTRY, costLimit, TYPE_NAMES);
  try {
    const value = evaluation.eval(program.ast, new Scope(vars));
    return { value, cost: evaluation.cost };
  } finally {
    if (spent) spent.cost = evaluation.cost;
  }
}

/** dynVariables declares every name as dyn (for evaluating without a schema). */
export function dynVariables(names: Iterable<string>): Map<string, CelType> {
  return new Map([...names].map((n) => [n, T.dyn]));
}
