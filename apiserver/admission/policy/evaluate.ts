/**
 * Evaluating one policy for one binding and one param (kube-apiserver's validator): match
 * conditions, then every validation (its message from messageExpression, message or the
 * expression), then audit annotation values. Variables are evaluated lazily, once, when an
 * expression first reads `variables.<name>`. Each expression may spend PER_CALL_LIMIT; the whole
 * evaluation RUNTIME_COST_BUDGET. Runtime problems become decisions per the failure policy.
 */
import { CelCostError, CelError, CelEvalError } from '../../apiextensions/cel/errors.js';
import { PER_CALL_LIMIT, type Program, run } from '../../apiextensions/cel/program.js';
import { CelMap, type CelValue, typeNameOf } from '../../apiextensions/cel/values.js';
import { type Compiled, RUNTIME_COST_BUDGET } from './cel-env.js';
import type { CompiledPolicy } from './compile-policy.js';

/** The values of object, oldObject, request, namespaceObject and params. */
export type Activation = ReadonlyMap<string, CelValue>;

export interface Decision {
  /** deny: the binding's validationActions apply; admit: nothing happens. */
  action: 'admit' | 'deny';
  message: string;
  /** The Status reason of a failed validation (Invalid unless the validation names one). */
  reason?: string;
}

export type AuditAnnotationResult = { key: string; value: string } | { key: string; error: string };

export interface ValidateResult {
  decisions: Decision[];
  auditAnnotations: AuditAnnotationResult[];
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
/** MAX_MESSAGE_BYTES is celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

class OutOfBudget extends Error {}

/** Evaluation runs the expressions of one policy evaluation against one shared budget. */
class Evaluation {
  private remaining = RUNTIME_COST_BUDGET;
  readonly scope: Map<string, CelValue>;

  constructor(activation: Activation, compiled: CompiledPolicy, hasVariables: boolean) {
    this.scope = new Map(activation);
    if (hasVariables) this.scope.set('variables', new LazyVariables(compiled, this));
  }

  /** run evaluates a program, charging its cost; throws CelError or OutOfBudget. */
  run(program: Program): CelValue {
    const spent = { cost: 0 };
    let outcome: { value: CelValue } | { error: unknown };
    try {
      outcome = { value: run(program, this.scope, PER_CALL_LIMIT, spent).value };
    } catch (error) {
      outcome = { error };
    }
    this.remaining -= spent.cost;
    if (this.remaining < 0) throw new OutOfBudget(OUT_OF_BUDGET);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** evaluate runs a compiled expression: its value, or kube-apiserver's error message. */
  evaluate(expression: string, compiled: Compiled): { value: CelValue } | { error: string } {
    if (compiled.error !== undefined) return { error: `compilation error: ${compiled.error}` };
    try {
      return { value: this.run(compiled.program) };
    } catch (err) {
      if (err instanceof OutOfBudget) throw err;
      return { error: `expression '${expression}' resulted in error: ${describe(err)}` };
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof CelError) return err.message;
  // Anything else (a stack overflow on a pathological value) is an evaluation error too.
  return err instanceof Error ? err.message : String(err);
}

/** LazyVariables is `variables`: each entry is computed when first read, then kept. */
class LazyVariables extends CelMap {
  private readonly values = new Map<string, { value: CelValue } | { error: unknown }>();

  constructor(
    private readonly compiled: CompiledPolicy,
    private readonly evaluation: Evaluation,
  ) {
    super();
  }

  get size(): number {
    return this.compiled.variables.length;
  }

  keys(): CelValue[] {
    return this.compiled.variables.map((v) => v.name);
  }

  get(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string') return undefined;
    const variable = this.compiled.variables.find((v) => v.name === key);
    if (!variable) return undefined;
    let result = this.values.get(key);
    if (!result) {
      result = this.compute(variable.name, variable.compiled);
      this.values.set(key, result);
    }
    if ('error' in result) throw result.error;
    return result.value;
  }

  private compute(name: string, compiled: Compiled): { value: CelValue } | { error: unknown } {
    if (compiled.error !== undefined) return { error: new CelEvalError(`composited variable "${name}" fails to compile: ${compiled.error}`) };
    try {
      return { value: this.evaluation.run(compiled.program) };
    } catch (err) {
      return { error: err instanceof CelCostError || err instanceof OutOfBudget || err instanceof CelError ? err : new CelEvalError(describe(err)) };
    }
  }
}

/** validate evaluates a policy; `failClosed` is failurePolicy Fail. */
export function validate(compiled: CompiledPolicy, activation: Activation, failClosed: boolean): ValidateResult {
  const evaluation = new Evaluation(activation, compiled, compiled.variables.length > 0);
  const onError = (message: string): Decision => ({ action: failClosed ? 'deny' : 'admit', message });
  try {
    const matched = matchConditions(compiled, evaluation);
    if (matched !== true) return { decisions: matched === false ? [] : [onError(matched)], auditAnnotations: [] };
    const decisions = compiled.validations.map((v) => decide(v, evaluation, onError));
    return { decisions, auditAnnotations: auditAnnotations(compiled, evaluation, failClosed) };
  } catch (err) {
    if (err instanceof OutOfBudget) return { decisions: [onError(err.message)], auditAnnotations: [] };
    throw err;
  }
}

/** matchConditions: false when one is false, an error message when some failed, else true. */
function matchConditions(compiled: CompiledPolicy, evaluation: Evaluation): boolean | string {
  const errors: string[] = [];
  for (const condition of compiled.matchConditions) {
    const result = evaluation.evaluate(condition.expression, condition.compiled);
    if ('error' in result) errors.push(result.error);
    else if (result.value === false) return false;
  }
  if (errors.length === 0) return true;
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}

function decide(v: CompiledPolicy['validations'][number], evaluation: Evaluation, onError: (message: string) => Decision): Decision {
  const result = evaluation.evaluate(v.expression, v.compiled);
  if ('error' in result) return onError(result.error);
  if (result.value === true) return { action: 'admit', message: '' };
  let message = '';
  if (v.messageExpression) {
    try {
      message = messageOf(evaluation.evaluate('', v.messageExpression));
    } catch (err) {
      if (err instanceof OutOfBudget) return onError(`failed messageExpression: ${err.message}`);
      throw err;
    }
  }
  if (!message && v.message) message = v.message.trim();
  if (!message) message = `failed expression: ${v.expression.trim()}`;
  return { action: 'deny', message, reason: v.reason ?? 'Invalid' };
}

/** messageOf keeps a messageExpression result only when it is a short one-line string. */
function messageOf(result: { value: CelValue } | { error: string }): string {
  if ('error' in result || typeof result.value !== 'string') return '';
  const message = result.value.trim();
  if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) return '';
  return message;
}

function auditAnnotations(compiled: CompiledPolicy, evaluation: Evaluation, failClosed: boolean): AuditAnnotationResult[] {
  const results: AuditAnnotationResult[] = [];
  for (const annotation of compiled.auditAnnotations) {
    const result = evaluation.evaluate(annotation.valueExpression, annotation.compiled);
    if ('error' in result) {
      if (failClosed) results.push({ key: annotation.key, error: result.error });
      continue;
    }
    if (result.value === null) continue;
    if (typeof result.value !== 'string') {
      const error = `valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${typeNameOf(result.value)}. Return type must be either string or null.`;
      results.push({ key: annotation.key, error });
      continue;
    }
    const value = result.value.trim();
    if (value) results.push({ key: annotation.key, value });
  }
  return results;
}
