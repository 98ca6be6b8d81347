/**
 * The CEL environment of admission expressions (k8s.io/apiserver/pkg/admission/plugin/cel):
 * `object`, `oldObject`, `request`, `namespaceObject`, `params` (when the policy has a
 * paramKind) and `variables` (a policy's composited variables), compiled by the project's CEL
 * engine with Kubernetes' libraries. Write-time compilation types object, oldObject, params and
 * namespaceObject as dyn, as kube-apiserver does; `request` has AdmissionRequest's fields, so a
 * misspelt `request.operaton` is a compile error there too. `authorizer` and
 * `authorizer.requestResource` come with Kubernetes' authorizer library (authorizer-library.ts).
 */
import { CelError } from '../../apiextensions/cel/errors.js';
import { compile, type Program } from '../../apiextensions/cel/program.js';
import { type CelType, T, typeName } from '../../apiextensions/cel/types.js';
import { ADMISSION_ENVIRONMENT, AUTHORIZER_TYPE, REQUEST_RESOURCE, RESOURCE_CHECK_TYPE } from './authorizer-library.js';

/** RUNTIME_COST_BUDGET is kube-apiserver's RuntimeCELCostBudget: what one evaluation of a
 * policy for one binding and param may spend across all its expressions. */
export const RUNTIME_COST_BUDGET = 10_000_000;

/** stringFields is an object type whose fields are all strings. */
const stringFields = (names: string[]): CelType => ({ kind: 'object', fields: new Map(names.map((n) => [n, T.string])) });
const GROUP_VERSION_KIND = stringFields(['group', 'version', 'kind']);
const GROUP_VERSION_RESOURCE = stringFields(['group', 'version', 'resource']);

/** REQUEST_TYPE is AdmissionRequest as CEL sees it (plugincel.BuildRequestType). */
export const REQUEST_TYPE: CelType = {
  kind: 'object',
  fields: new Map<string, CelType>([
    ['kind', GROUP_VERSION_KIND],
    ['resource', GROUP_VERSION_RESOURCE],
    ['subResource', T.string],
    ['requestKind', GROUP_VERSION_KIND],
    ['requestResource', GROUP_VERSION_RESOURCE],
    ['requestSubResource', T.string],
    ['name', T.string],
    ['namespace', T.string],
    ['operation', T.string],
    [
      'userInfo',
      {
        kind: 'object',
        fields: new Map<string, CelType>([
          ['username', T.string],
          ['uid', T.string],
          ['groups', T.list(T.string)],
          ['extra', T.map(T.string, T.list(T.string))],
        ]),
      },
    ],
    ['dryRun', T.bool],
    ['options', T.dyn],
  ]),
};

/** What an expression may see besides object, oldObject, request and namespaceObject. */
export interface DeclarationOptions {
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` (every expression but messageExpression). */
  hasAuthorizer: boolean;
  /** The types of the policy's variables compiled so far (in order); undefined: no `variables`. */
  variables?: ReadonlyMap<string, CelType>;
  /** Types of object/oldObject and params for type checking; dyn when absent. */
  objectType?: CelType;
  paramsType?: CelType;
}

export function declarations(options: DeclarationOptions): Map<string, CelType> {
  const object = options.objectType ?? T.dyn;
  const vars = new Map<string, CelType>([
    ['object', object],
    ['oldObject', object],
    ['request', REQUEST_TYPE],
    ['namespaceObject', T.dyn],
  ]);
  if (options.hasParams) vars.set('params', options.paramsType ?? T.dyn);
  if (options.hasAuthorizer) {
    vars.set('authorizer', AUTHORIZER_TYPE);
    vars.set(REQUEST_RESOURCE, RESOURCE_CHECK_TYPE);
  }
  if (options.variables) vars.set('variables', { kind: 'object', fields: options.variables });
  return vars;
}

/** The result types an expression may have (compile.go's ReturnTypes), dyn meaning any. */
export type ReturnTypes = readonly CelType[];
export const BOOL: ReturnTypes = [T.bool];
export const STRING: ReturnTypes = [T.string];
export const STRING_OR_NULL: ReturnTypes = [T.string, T.null];
export const ANY: ReturnTypes = [T.dyn];

/** Compiled is a program, or kube-apiserver's reason it cannot be one. */
export type Compiled = { program: Program; error?: undefined } | { program?: undefined; error: string };

/** compileExpression compiles as plugincel's CompileCELExpression: `compilation failed: <issues>`
 * for parse and type errors, `must evaluate to <type>` when the result type is not allowed.
 * Never throws for bad input. */
export function compileExpression(source: string, vars: ReadonlyMap<string, CelType>, returns: ReturnTypes): Compiled {
  let program: Program;
  try {
    program = compile(source, vars, ADMISSION_ENVIRONMENT);
  } catch (err) {
    if (err instanceof CelError) return { error: `compilation failed: ${err.message}` };
    // Whatever else the engine throws on hostile input (a stack overflow) is a compile failure
    // too: a write must be refused, never answered 500.
    return { error: `compilation failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (returns.some((t) => t.kind === 'dyn' || t.kind === program.type.kind)) return { program };
  if (returns.length === 1) return { error: `must evaluate to ${typeName(returns[0]!)}` };
  return { error: `must evaluate to one of [${returns.map(typeName).join(' ')}]` };
}
