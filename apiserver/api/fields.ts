/**
 * Field selectors as Kubernetes parses them (k8s.io/apimachinery pkg/fields): `f=v`, `f==v`,
 * `f!=v`, joined by commas (AND). In values, `\,`, `\=` and `\\` stand for `,`, `=` and `\`;
 * field names cannot be escaped. Which fields a resource supports is the API server's business
 * (it rejects others with `field label not supported: <name>`); this module only parses and
 * matches.
 *
 * Imports only apiserver/api/ (the server, controllers and scheduler all use it).
 */
import { SelectorParseError } from './selector-parse-error.js';

export { isSelectorParseError, SelectorParseError } from './selector-parse-error.js';

/** FieldOperators are the field selector operators; `==` parses as Equals. */
export const FieldOperators = { Equals: '=', NotEquals: '!=' } as const;

/** FieldOperator is one of FieldOperators. */
export type FieldOperator = (typeof FieldOperators)[keyof typeof FieldOperators];

/** FieldRequirement is one ANDed term: `field` must (=) or must not (!=) equal `value`, where a
 * missing field reads as ''. `value` is unescaped. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  readonly value: string;
}

/** FieldSelectorQuery is an immutable, parsed field selector. Safe to share between callers. */
export class FieldSelectorQuery {
  /** everything matches every object; its string form is ''. */
  static readonly everything: FieldSelectorQuery = new FieldSelectorQuery([]);

  /** requirements are in the order Kubernetes keeps them: sorted by their source text. */
  readonly requirements: readonly FieldRequirement[];

  private constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = Object.freeze(requirements.map((r) => Object.freeze({ ...r })));
  }

  /** fromRequirements ANDs requirements in the given order; none means everything. */
  static fromRequirements(requirements: readonly FieldRequirement[]): FieldSelectorQuery {
    return requirements.length === 0 ? FieldSelectorQuery.everything : new FieldSelectorQuery(requirements);
  }

  /** matches reports whether every requirement holds, reading fields through `get`; undefined
   * from `get` counts as '' (so `spec.nodeName=` matches unscheduled pods). Never throws unless
   * `get` does. */
  matches(get: (field: string) => string | undefined): boolean {
    return this.requirements.every((r) => {
      const isEqual = (get(r.field) ?? '') === r.value;
      return r.operator === FieldOperators.Equals ? isEqual : !isEqual;
    });
  }

  /** fields lists the distinct field names used, in requirement order, so the API server can
   * reject unsupported ones before matching. */
  fields(): string[] {
    return [...new Set(this.requirements.map((r) => r.field))];
  }

  /** isEverything is true when the selector has no requirements. */
  isEverything(): boolean {
    return this.requirements.length === 0;
  }

  /** requiresExactMatch returns the value of the first `=` requirement on `field`, or undefined;
   * e.g. `metadata.name` for single-object lists and watches. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === FieldOperators.Equals)?.value;
  }

  /** toString is the canonical form: `f=v` / `f!=v` terms (values escaped) joined by commas. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** escapeFieldValue escapes `\`, `,` and `=` with a backslash so any string can be used as a
 * field selector value (Kubernetes' fields.EscapeValue). */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** unescapeFieldValue reverses escapeFieldValue (Kubernetes' fields.UnescapeValue). Throws
 * SelectorParseError for an unknown escape (`\a`), a trailing lone `\`, or an unescaped `,` or
 * `=`; like Go, the last message names the character by its code point (`... value: 61`). */
export function unescapeFieldValue(value: string): string {
  let result = '';
  let escaping = false;
  for (const c of value) {
    if (escaping) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      result += c;
      escaping = false;
    } else if (c === '\\') {
      escaping = true;
    } else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      result += c;
    }
  }
  if (escaping) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return result;
}

/** Splits on commas that are not escaped; escaped commas stay in the term with their backslash. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let escaping = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector.charAt(i);
    if (escaping) escaping = false;
    else if (c === '\\') escaping = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** Splits a term at the first operator; `!=` and `==` win over `=` at the same position. */
function splitTerm(term: string): { field: string; operator: FieldOperator; rawValue: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const operator = TERM_OPERATORS.find((op) => term.startsWith(op, i));
    if (operator !== undefined) {
      const normalized = operator === '!=' ? FieldOperators.NotEquals : FieldOperators.Equals;
      return { field: term.slice(0, i), operator: normalized, rawValue: term.slice(i + operator.length) };
    }
  }
  return undefined;
}

/** parseFieldSelector parses the `fieldSelector` query parameter as Kubernetes'
 * fields.ParseSelector does: terms are sorted by their text, empty terms are skipped, and a term
 * with both an empty field and an empty value (`=`) is dropped. '' selects everything. Field
 * names are not validated here. Throws SelectorParseError worded as Kubernetes', e.g.
 * `invalid selector: 'x'; can't understand 'x'`. */
export function parseFieldSelector(text: string): FieldSelectorQuery {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (parts === undefined) throw new SelectorParseError(`invalid selector: '${text}'; can't understand '${term}'`);
    const value = unescapeFieldValue(parts.rawValue);
    if (parts.field === '' && value === '') continue;
    requirements.push({ field: parts.field, operator: parts.operator, value });
  }
  return FieldSelectorQuery.fromRequirements(requirements);
}
