/**
 * Label selectors as Kubernetes evaluates them (k8s.io/apimachinery pkg/labels and the
 * metav1.LabelSelector helpers): the `?labelSelector=` string form, the structured form used in
 * specs (Deployment, ReplicaSet, Service, HPA targets) and the canonical string both print as.
 *
 * Imports only apiserver/api/ (the server, controllers and scheduler all use it).
 */

import type { LabelOperator, LabelRequirement } from './label-requirement.js';
import { compareStrings, createLabelRequirement, formatLabelRequirement, LabelOperators, labelRequirementMatches } from './label-requirement.js';
import { parseLabelRequirements } from './label-selector-parser.js';
import { quoteGoString } from './label-validation.js';
import type { LabelSelector } from './meta.js';
import { SelectorParseError } from './selector-parse-error.js';

export type { LabelOperator, LabelRequirement } from './label-requirement.js';
export { createLabelRequirement, LabelOperators } from './label-requirement.js';
export { isSelectorParseError, SelectorParseError } from './selector-parse-error.js';

const PINNING_OPERATORS: ReadonlySet<LabelOperator> = new Set([LabelOperators.Equals, LabelOperators.DoubleEquals, LabelOperators.In]);

/** LabelSelectorQuery is an immutable, validated label selector: the AND of its requirements.
 * It is either a list of requirements (none = everything) or the special "nothing" selector that
 * Kubernetes uses for an absent structured selector. Safe to share between callers. */
export class LabelSelectorQuery {
  /** everything matches every label set, including none; its string form is ''. */
  static readonly everything: LabelSelectorQuery = new LabelSelectorQuery([], false);
  /** nothing matches no label set at all; its string form is '' too (see isNothing). */
  static readonly nothing: LabelSelectorQuery = new LabelSelectorQuery([], true);

  /** requirements are sorted by key; empty for both everything and nothing. */
  readonly requirements: readonly LabelRequirement[];

  private constructor(
    requirements: readonly LabelRequirement[],
    private readonly selectsNothing: boolean,
  ) {
    this.requirements = Object.freeze([...requirements]);
  }

  /** fromRequirements ANDs validated requirements (see createLabelRequirement), sorting them
   * stably by key as Kubernetes' Selector.Add does. No requirements means everything. */
  static fromRequirements(requirements: readonly LabelRequirement[]): LabelSelectorQuery {
    const sorted = [...requirements].sort((a, b) => compareStrings(a.key, b.key));
    return sorted.length === 0 ? LabelSelectorQuery.everything : new LabelSelectorQuery(sorted, false);
  }

  /** matches reports whether every requirement holds for `labels` (undefined = no labels).
   * Never throws and never mutates `labels`. */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    if (this.selectsNothing) return false;
    const set = labels ?? {};
    return this.requirements.every((requirement) => labelRequirementMatches(requirement, set));
  }

  /** isEverything is true when the selector does not restrict anything (Kubernetes' Empty()). */
  isEverything(): boolean {
    return !this.selectsNothing && this.requirements.length === 0;
  }

  /** isNothing is true only for LabelSelectorQuery.nothing (Kubernetes' MatchesNothing); it does
   * not detect contradictions such as `a=1,a!=1`. */
  isNothing(): boolean {
    return this.selectsNothing;
  }

  /** requiresExactMatch returns the value the first requirement on `key` pins it to (`=`, `==`
   * or a one-value `in`), or undefined; used to narrow lists before matching. */
  requiresExactMatch(key: string): string | undefined {
    const requirement = this.requirements.find((r) => r.key === key);
    if (requirement === undefined || requirement.values.length !== 1) return undefined;
    return PINNING_OPERATORS.has(requirement.operator) ? requirement.values[0] : undefined;
  }

  /** toString is the canonical form, e.g. `app=web,tier in (a,b),!canary`; '' for everything
   * and for nothing. Parsing it again yields an equal selector. */
  toString(): string {
    return this.requirements.map(formatLabelRequirement).join(',');
  }
}

/** parseLabelSelector parses the `labelSelector` query-parameter grammar: `k=v`, `k==v`,
 * `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, `k>1`, `k<1`, joined by commas (AND), with
 * free whitespace between tokens. '' (or only whitespace) selects everything. Keys and values are
 * validated as label keys and values. Throws SelectorParseError worded as kube-apiserver's 400
 * message, e.g. `unable to parse requirement: found '', expected: identifier`. */
export function parseLabelSelector(text: string): LabelSelectorQuery {
  return LabelSelectorQuery.fromRequirements(parseLabelRequirements(text));
}

const STRUCTURED_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: LabelOperators.In,
  NotIn: LabelOperators.NotIn,
  Exists: LabelOperators.Exists,
  DoesNotExist: LabelOperators.DoesNotExist,
};

/** labelSelectorFromStructured converts a metav1.LabelSelector as Kubernetes'
 * LabelSelectorAsSelector does:
 * - undefined/null selects NOTHING (a nil selector in a spec matches no object);
 * - `{}` (no matchLabels and no matchExpressions) selects EVERYTHING;
 * - otherwise matchLabels become `k=v` and matchExpressions In/NotIn/Exists/DoesNotExist
 *   requirements, all ANDed.
 * Never mutates `selector`. Throws SelectorParseError for an invalid key, value or operator
 * (e.g. `"Foo" is not a valid label selector operator`, or In with no values). */
export function labelSelectorFromStructured(selector: LabelSelector | undefined | null): LabelSelectorQuery {
  if (selector === undefined || selector === null) return LabelSelectorQuery.nothing;
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const matchExpressions = selector.matchExpressions ?? [];
  if (matchLabels.length === 0 && matchExpressions.length === 0) return LabelSelectorQuery.everything;
  const requirements = matchLabels.map(([key, value]) => createLabelRequirement(key, LabelOperators.Equals, [value]));
  for (const expression of matchExpressions) {
    const operator = STRUCTURED_OPERATORS[expression.operator as string];
    if (operator === undefined) {
      throw new SelectorParseError(`${quoteGoString(String(expression.operator))} is not a valid label selector operator`);
    }
    requirements.push(createLabelRequirement(expression.key, operator, expression.values ?? []));
  }
  return LabelSelectorQuery.fromRequirements(requirements);
}

/** formatLabelSelector renders a structured selector as Kubernetes' FormatLabelSelector does
 * (kubectl's Selector columns, describe): the canonical string, `<none>` when it is empty
 * (undefined, null or `{}`), `<error>` when it is invalid. Never throws.
 * NOTE: the Scale subresource's `status.selector` and HPA `status.selector` are not this: they
 * are `labelSelectorFromStructured(sel).toString()`, which is '' rather than `<none>`. */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  let query: LabelSelectorQuery;
  try {
    query = labelSelectorFromStructured(selector);
  } catch (err) {
    if (err instanceof SelectorParseError) return '<error>';
    throw err;
  }
  const text = query.toString();
  return text === '' ? '<none>' : text;
}

/** matchesSelector reports whether a structured selector selects `labels` (undefined selector =
 * nothing, `{}` = everything). Throws SelectorParseError for an invalid selector; to test many
 * objects, convert once with labelSelectorFromStructured and call matches. */
export function matchesSelector(selector: LabelSelector | undefined | null, labels: Readonly<Record<string, string>> | undefined): boolean {
  return labelSelectorFromStructured(selector).matches(labels);
}
