/**
 * Type checking of a policy against the schemas of the kinds it matches (kube-apiserver's
 * validating TypeChecker): every validation expression and messageExpression is compiled with
 * `object`/`oldObject` typed by each matched kind's OpenAPI schema (at most 10 kinds, taken
 * from resource rules without wildcards or subresources) and `params` by the paramKind's; the
 * issues become status.typeChecking.expressionWarnings. Schema nodes this conversion cannot
 * type (anyOf/oneOf alternatives, untyped objects, deeper than 24 levels) are dyn, so they are
 * never reported; return types are not checked, as in kube-apiserver.
 */
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import type { Registry } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import { deref, type SchemaDocument, type SchemaNode, schemaDocumentFor } from '../../api/schema-node.js';
import { CelError } from '../../apiextensions/cel/errors.js';
import { compile } from '../../apiextensions/cel/program.js';
import { schemaType } from '../../apiextensions/cel/schema-types.js';
import type { StructuralLike } from '../../apiextensions/cel/structural.js';
import { type CelType, T } from '../../apiextensions/cel/types.js';
import { ADMISSION_ENVIRONMENT } from './authorizer-library.js';
import { declarations } from './cel-env.js';

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const MAX_TYPES_TO_CHECK = 10;
const MAX_DEPTH = 24;
const DYN: StructuralLike = { 'x-kubernetes-int-or-string': true };

/** typeCheck returns the policy's expression warnings (empty when all type-check). */
export function typeCheck(registry: Registry, policy: ValidatingAdmissionPolicy): ExpressionWarning[] {
  const spec = policy.spec ?? {};
  const kinds = kindsToCheck(registry, policy);
  if (kinds.length === 0) return [];
  const paramDef = spec.paramKind ? registry.findByKind(spec.paramKind.apiVersion ?? '', spec.paramKind.kind ?? '') : undefined;
  const paramsType = paramDef && kindType(paramDef);
  const contexts = kinds.map((def) => ({ def, env: environment(policy, kindType(def), paramsType) }));
  const check = (expression: string): string =>
    contexts
      .map(({ def, env }) => {
        const issues = issuesOf(expression, env);
        return issues ? `${gvkText(def)}: ${issues}\n` : '';
      })
      .filter((text) => text !== '')
      .join('\n');
  const warnings: ExpressionWarning[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const expression = check(v.expression ?? '');
    if (expression) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: expression });
    if (!v.messageExpression) return;
    const message = check(v.messageExpression);
    if (message) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: message });
  });
  return warnings;
}

const gvkText = (def: ResourceDefinition) => `${def.group}/${def.version}, Kind=${def.kind}`;

/** environment declares the variables with the kind's types and the policy's variables typed
 * by compiling them in the same environment. */
function environment(policy: ValidatingAdmissionPolicy, objectType: CelType | undefined, paramsType: CelType | undefined): Map<string, CelType> {
  const variables = new Map<string, CelType>();
  const hasParams = paramsType !== undefined;
  const env = () => declarations({ hasParams, hasAuthorizer: true, variables, ...(objectType ? { objectType } : {}), ...(paramsType ? { paramsType } : {}) });
  for (const variable of policy.spec?.variables ?? []) {
    let type: CelType = T.dyn;
    try {
      type = compile(variable.expression ?? '', env(), ADMISSION_ENVIRONMENT).type;
    } catch {
      // An uncompilable variable is dyn for the expressions that use it.
    }
    variables.set(variable.name ?? '', type);
  }
  return env();
}

function issuesOf(expression: string, env: Map<string, CelType>): string | undefined {
  try {
    compile(expression, env, ADMISSION_ENVIRONMENT);
    return undefined;
  } catch (err) {
    if (err instanceof CelError) return err.message;
    return undefined;
  }
}

/** kindsToCheck resolves the policy's explicit group/version/resource triples to served kinds. */
function kindsToCheck(registry: Registry, policy: ValidatingAdmissionPolicy): ResourceDefinition[] {
  const found = new Map<string, ResourceDefinition>();
  for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort())
      for (const version of [...versions].sort())
        for (const resource of [...resources].sort()) {
          const def = registry.find(group, version, resource);
          if (def) found.set(gvkText(def), def);
          if (found.size === MAX_TYPES_TO_CHECK) return sorted(found);
        }
  }
  return sorted(found);
}

function sorted(found: Map<string, ResourceDefinition>): ResourceDefinition[] {
  const key = (d: ResourceDefinition) => [d.group, d.version, d.kind];
  return [...found.values()].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

const kindTypes = new WeakMap<SchemaDocument, CelType | null>();

/** kindType is the CEL type of a kind's objects, from its OpenAPI schema (cached). */
function kindType(def: ResourceDefinition): CelType | undefined {
  const doc = schemaDocumentFor(def);
  let type = kindTypes.get(doc);
  if (type === undefined) {
    type = schemaType(structural(doc.root, doc, 0), true) ?? null;
    kindTypes.set(doc, type);
  }
  return type ?? undefined;
}

/** structural converts a JSON-schema node into the structural form the CEL engine types. */
function structural(node: SchemaNode | undefined, doc: SchemaDocument, depth: number): StructuralLike {
  const resolved = deref(node, doc);
  if (!resolved || depth > MAX_DEPTH || resolved['x-kubernetes-int-or-string']) return DYN;
  const type = Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
  switch (type) {
    case 'string':
      return { type, ...(resolved.format ? { format: resolved.format } : {}) };
    case 'integer':
    case 'number':
    case 'boolean':
      return { type };
    case 'array':
      return { type, items: structural(resolved.items, doc, depth + 1) };
    case 'object':
      return objectNode(resolved, doc, depth);
    default:
      return DYN;
  }
}

function objectNode(node: SchemaNode, doc: SchemaDocument, depth: number): StructuralLike {
  if (node.properties) {
    const properties: Record<string, StructuralLike> = {};
    for (const [name, property] of Object.entries(node.properties)) properties[name] = structural(property, doc, depth + 1);
    return { type: 'object', properties };
  }
  if (typeof node.additionalProperties === 'object') return { type: 'object', additionalProperties: structural(node.additionalProperties, doc, depth + 1) };
  return DYN;
}
