/**
 * The JSONPath subset CRD printer columns use (client-go's jsonpath as the CRD table
 * convertor runs it, with missing keys allowed): `.spec.x.y`, `['dotted.key']`, `[0]`, `[*]`
 * and filters such as `.status.conditions[?(@.type=="Ready")].status` (`==`, `!=`, or a bare
 * `@.field` for presence).
 */

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string[]; op: '==' | '!=' | 'exists'; value?: unknown };

/** JsonPath evaluates a parsed path: every value it selects, in document order. */
export type JsonPath = (object: unknown) => unknown[];

/** compileJsonPath parses `path`; undefined when it is not in the supported subset. */
export function compileJsonPath(path: string): JsonPath | undefined {
  const steps = parseSteps(path.trim());
  if (!steps) return undefined;
  return (object) => steps.reduce<unknown[]>((values, step) => values.flatMap((value) => applyStep(step, value)), [object]);
}

function parseSteps(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let rest = path;
  if (!rest.startsWith('.') && !rest.startsWith('[')) return undefined;
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = /^\.([A-Za-z0-9_$-]+)/.exec(rest))) steps.push({ kind: 'field', name: match[1]! });
    else if ((match = /^\[\s*(['"])((?:\\.|(?!\1).)*)\1\s*\]/.exec(rest))) steps.push({ kind: 'field', name: match[2]!.replace(/\\(.)/g, '$1') });
    else if ((match = /^\[\s*(-?\d+)\s*\]/.exec(rest))) steps.push({ kind: 'index', index: Number(match[1]) });
    else if ((match = /^(?:\[\s*\*\s*\]|\.\*)/.exec(rest))) steps.push({ kind: 'all' });
    else if ((match = /^\[\s*\?\(\s*@((?:\.[A-Za-z0-9_$-]+)+)\s*(?:(==|!=)\s*("(?:[^"\\]|\\.)*"|'[^']*'|-?\d+(?:\.\d+)?|true|false))?\s*\)\s*\]/.exec(rest))) {
      steps.push(filterStep(match[1]!, match[2], match[3]));
    } else if (rest === '.') break;
    else return undefined;
    rest = rest.slice(match?.[0].length ?? rest.length);
  }
  return steps;
}

function filterStep(path: string, op: string | undefined, literal: string | undefined): Step {
  const fields = path.slice(1).split('.');
  if (!op || literal === undefined) return { kind: 'filter', path: fields, op: 'exists' };
  const value = literal.startsWith("'") ? literal.slice(1, -1) : JSON.parse(literal);
  return { kind: 'filter', path: fields, op: op as '==' | '!=', value };
}

function applyStep(step: Step, value: unknown): unknown[] {
  switch (step.kind) {
    case 'field':
      return isObject(value) && step.name in value ? [value[step.name]] : [];
    case 'index': {
      if (!Array.isArray(value)) return [];
      const index = step.index < 0 ? value.length + step.index : step.index;
      return index >= 0 && index < value.length ? [value[index]] : [];
    }
    case 'all':
      return Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
    case 'filter': {
      const items = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
      return items.filter((item) => matches(step, item));
    }
  }
}

function matches(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  let current: unknown = item;
  for (const name of step.path) {
    if (!isObject(current) || !(name in current)) return false;
    current = current[name];
  }
  if (step.op === 'exists') return true;
  return step.op === '==' ? current === step.value : current !== step.value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
