/**
 * Static checks of `x-kubernetes-validations` entries (compiling the CEL is another module's
 * job): a rule is required, messages are single non-empty lines, the reason is one of the
 * four supported, and fieldPath names a field of the schema (resolveFieldPath).
 */
import type { FieldError } from '../../api/resource-definition.js';
import { invalid, notSupported, required } from '../../api/validation.js';
import { tokenizeFieldPath } from '../cel/field-path.js';
import { child, index } from './field-errors.js';
import { additionalPropertiesSchema, type JSONSchemaProps } from './types.js';

const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** validateRules checks the x-kubernetes-validations of one schema node at `path`. */
export function validateRules(schema: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = (field: string) => child(index(child(path, 'x-kubernetes-validations'), i), field);
    const text = rule.rule.trim();
    const message = rule.message ?? '';
    if (!text) errors.push({ ...required(at('rule')), detail: 'rule is not specified' });
    else if (message && !message.trim()) errors.push(invalid(at('message'), message, 'must be non-empty if specified'));
    else if (hasNewlines(message.trim())) errors.push(invalid(at('message'), message, 'must not contain line breaks'));
    else if (hasNewlines(text) && !message.trim())
      errors.push({ ...required(at('message')), detail: 'message must be specified if rule contains line breaks' });
    if (rule.messageExpression && !rule.messageExpression.trim()) {
      errors.push({ ...required(at('messageExpression')), detail: 'messageExpression must be non-empty if specified' });
    }
    if (rule.reason !== undefined && !SUPPORTED_REASONS.includes(rule.reason)) errors.push(notSupported(at('reason'), rule.reason, SUPPORTED_REASONS));
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath && !fieldPath.trim()) errors.push(invalid(at('fieldPath'), fieldPath, 'must be non-empty if specified'));
    if (hasNewlines(fieldPath)) errors.push(invalid(at('fieldPath'), fieldPath, 'must not contain line breaks'));
    if (fieldPath && resolveFieldPath(fieldPath, schema) === undefined) errors.push(invalid(at('fieldPath'), fieldPath, 'must be a valid path'));
  });
  return errors;
}

/** resolveFieldPath follows a rule's fieldPath (`.spec.ports['http']`, `.metadata.name`) from
 * `schema` and returns the schema it names, or undefined when it names no field. */
export function resolveFieldPath(fieldPath: string, schema: JSONSchemaProps): JSONSchemaProps | undefined {
  const tokens = tokenizeFieldPath(fieldPath);
  let current: JSONSchemaProps | undefined = schema;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let name: string | undefined;
    if (token === '.') {
      name = tokens[++i];
    } else if (token === '[') {
      const quoted = tokens[++i];
      if (!quoted || quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'") || tokens[++i] !== ']') return undefined;
      name = unescapeQuoted(quoted.slice(1, -1));
    }
    if (name === undefined || !current) return undefined;
    if (current.properties) current = current.properties[name];
    else if (current.additionalProperties !== undefined) current = additionalPropertiesSchema(current) ?? {};
    else return undefined;
    if (!current) return undefined;
  }
  return current;
}

function unescapeQuoted(quoted: string): string | undefined {
  if (/\\(?![\\'])/.test(quoted)) return undefined;
  return quoted.replace(/\\([\\'])/g, '$1');
}
