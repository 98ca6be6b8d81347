/**
 * A ValidatingAdmissionPolicy's expressions compiled once (per stored version of the policy):
 * its variables in order (each sees the ones before it as `variables.<name>`), match
 * conditions, validations with their message expressions, and audit annotation values — the
 * environments kube-apiserver's policy compiler gives each (params only with a paramKind;
 * messageExpression always sees params).
 */
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import { usesVariable } from '../../apiextensions/cel/program.js';
import { type CelType, T } from '../../apiextensions/cel/types.js';
import { ANY, BOOL, type Compiled, compileExpression, declarations, STRING, STRING_OR_NULL } from './cel-env.js';

export type PolicySpec = NonNullable<ValidatingAdmissionPolicy['spec']>;

export interface CompiledVariable {
  name: string;
  compiled: Compiled;
}

export interface CompiledValidation {
  expression: string;
  message?: string;
  reason?: string;
  compiled: Compiled;
  messageExpression?: Compiled;
}

export interface CompiledPolicy {
  /** Whether any expression reads `namespaceObject` (else the Namespace is not looked up). */
  readsNamespace: boolean;
  variables: CompiledVariable[];
  matchConditions: Array<{ name: string; expression: string; compiled: Compiled }>;
  validations: CompiledValidation[];
  auditAnnotations: Array<{ key: string; valueExpression: string; compiled: Compiled }>;
}

/** Typing overrides object/oldObject and params types (status type checking); dyn otherwise. */
export interface Typing {
  objectType?: CelType;
  paramsType?: CelType;
}

/** compilePolicy compiles every expression of a spec; problems are kept per expression. */
export function compilePolicy(spec: PolicySpec, typing: Typing = {}): CompiledPolicy {
  const hasParams = spec.paramKind !== undefined;
  const variableTypes = new Map<string, CelType>();
  const env = (params: boolean, hasAuthorizer = true) => declarations({ hasParams: params, hasAuthorizer, variables: variableTypes, ...typing });
  const variables = (spec.variables ?? []).map((v) => {
    const compiled = compileExpression(v.expression ?? '', env(hasParams), ANY);
    variableTypes.set(v.name ?? '', compiled.program?.type ?? T.dyn);
    return { name: v.name ?? '', compiled };
  });
  const compiled = {
    variables,
    matchConditions: (spec.matchConditions ?? []).map((c) => ({
      name: c.name ?? '',
      expression: c.expression ?? '',
      compiled: compileExpression((c.expression ?? '').trim(), env(hasParams), BOOL),
    })),
    validations: (spec.validations ?? []).map((v) => ({
      expression: v.expression ?? '',
      ...(v.message !== undefined ? { message: v.message } : {}),
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      compiled: compileExpression(v.expression ?? '', env(hasParams), BOOL),
      ...(v.messageExpression?.trim() ? { messageExpression: compileExpression(v.messageExpression, env(true, false), STRING) } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key ?? '',
      valueExpression: a.valueExpression ?? '',
      compiled: compileExpression((a.valueExpression ?? '').trim(), env(hasParams), STRING_OR_NULL),
    })),
  };
  const programs = [
    ...compiled.variables.map((v) => v.compiled),
    ...compiled.matchConditions.map((c) => c.compiled),
    ...compiled.validations.flatMap((v) => [v.compiled, ...(v.messageExpression ? [v.messageExpression] : [])]),
    ...compiled.auditAnnotations.map((a) => a.compiled),
  ];
  const readsNamespace = programs.some((c) => c.program !== undefined && usesVariable(c.program, 'namespaceObject'));
  return { readsNamespace, ...compiled };
}
