/**
 * Whether a rule's `match` selects a request. Every field given must hold; an empty match
 * selects every resource request.
 */
import { compileRe2 } from '../api/machinery/re2/compile.js';
import { type FaultMatch, isRegexPattern } from './rule-schema.js';
import type { FaultRequest } from './types.js';

/** matchesRequest says whether `match` selects `request`. Pure; patterns are validated by
 * parseFaultRule, so a regex here always compiles. */
export function matchesRequest(match: FaultMatch, request: FaultRequest): boolean {
  return (
    matchesPattern(match.userAgent, request.userAgent ?? '', 'substring') &&
    matchesPattern(match.fieldManager, request.fieldManager, 'exact') &&
    matchesPattern(match.user, request.user, 'exact') &&
    (match.verbs === undefined || (match.verbs as readonly string[]).includes(request.verb)) &&
    matchesResource(match.resource, request) &&
    equalIfGiven(match.subresource, request.subresource) &&
    equalIfGiven(match.namespace, request.namespace) &&
    equalIfGiven(match.name, request.name)
  );
}

/** matchesPattern: a `/regex/` (RE2 syntax, linear-time engine) is searched for; a plain
 * string must be a substring or equal. */
export function matchesPattern(pattern: string | undefined, value: string, plain: 'substring' | 'exact'): boolean {
  if (pattern === undefined) return true;
  if (isRegexPattern(pattern)) return compileRe2(pattern.slice(1, -1)).test(value);
  return plain === 'substring' ? value.includes(pattern) : value === pattern;
}

/** matchesResource: `deployments` selects that plural in any group, `deployments.apps` only in apps. */
function matchesResource(resource: string | undefined, request: FaultRequest): boolean {
  if (resource === undefined) return true;
  const dot = resource.indexOf('.');
  if (dot < 0) return resource === request.resource;
  return resource.slice(0, dot) === request.resource && resource.slice(dot + 1) === request.group;
}

function equalIfGiven(expected: string | undefined, actual: string | undefined): boolean {
  return expected === undefined || expected === actual;
}
