/**
 * The FaultRule a test or `kubesim fault add` posts, as a zod schema: the single source of
 * the rule's shape (types.ts derives its types from it). parseFaultRule is the trust
 * boundary: it answers 422 Invalid naming every bad field.
 */
import { z } from 'zod';
import { invalid } from '../api/api-error.js';
import { compileRe2 } from '../api/machinery/re2/compile.js';
import { ALL_VERBS, type FieldError } from '../api/resource-definition.js';
import { toFieldError } from '../registry/object-codec.js';

export const FAULTS_API_VERSION = 'kubesim.io/v1alpha1';

/** FAULT_ERROR_CODES are the HTTP errors a rule can inject. */
export const FAULT_ERROR_CODES = [409, 429, 500, 503] as const;
export type FaultErrorCode = (typeof FAULT_ERROR_CODES)[number];

/** A `/regex/` or a plain string (substring for userAgent, exact otherwise); a regex must compile. */
const PatternSchema = z
  .string()
  .min(1)
  .refine((text) => !isRegexPattern(text) || compiles(text.slice(1, -1)), { message: 'must be a valid regular expression between slashes' });

/** The request fields a rule selects on; every field given must hold. */
const MATCH_SHAPE = {
  userAgent: PatternSchema.optional(),
  fieldManager: PatternSchema.optional(),
  /** The requesting user: kubesim has no authentication, so the bearer token is the user name. */
  user: PatternSchema.optional(),
  verbs: z.array(z.enum(ALL_VERBS)).min(1).optional(),
  /** A plural (`deployments`, any group) or plural.group (`deployments.apps`). */
  resource: z.string().min(1).optional(),
  subresource: z.string().min(1).optional(),
  namespace: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
};

const FaultErrorSchema = z.strictObject({
  code: z.literal(FAULT_ERROR_CODES),
  message: z.string().min(1).optional(),
  /** Sent as `Retry-After` and `details.retryAfterSeconds` (default 1 for 429). */
  retryAfterSeconds: z.int().min(1).max(3600).optional(),
});

const CloseWatchesSchema = z.strictObject({
  /** End the matching watches open when the rule is added (default true). */
  open: z.boolean().default(true),
  /** End each matching watch opened later once it has sent this many events. */
  afterEvents: z.int().min(0).optional(),
});

/** What a firing rule does; a rule names at least one. */
const FAULT_SHAPE = {
  /** `409` is short for `{ code: 409 }`. */
  error: z.preprocess((e) => (typeof e === 'number' ? { code: e } : e), FaultErrorSchema).optional(),
  latencyMs: z.int().min(1).max(600_000).optional(),
  /** `true` is short for `{ open: true }`. */
  closeWatches: z.preprocess((c) => (c === true ? {} : c), CloseWatchesSchema).optional(),
  refuseWatchResume: z.literal(true).optional(),
  withholdBookmarks: z.literal(true).optional(),
  compact: z.literal(true).optional(),
};

export const FAULT_KEYS = Object.keys(FAULT_SHAPE) as Array<keyof typeof FAULT_SHAPE>;
export const MATCH_KEYS = Object.keys(MATCH_SHAPE) as Array<keyof typeof MATCH_SHAPE>;

const ID_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** FaultRuleSpecSchema is a rule as posted: match fields, faults, and when it may fire.
 * apiVersion/kind may be given and must then be ours. */
export const FaultRuleSpecSchema = z
  .strictObject({
    apiVersion: z.literal(FAULTS_API_VERSION).optional(),
    kind: z.literal('FaultRule').optional(),
    /** Chosen by the server (`fault-1`, …) when absent. */
    id: z.string().max(63).regex(ID_PATTERN, 'must be a lowercase RFC 1123 label').optional(),
    ...MATCH_SHAPE,
    ...FAULT_SHAPE,
    /** How many times the rule may fire; unlimited when absent. */
    count: z.int().min(1).optional(),
    /** The chance that a matching request is hit (default 1). */
    probability: z.number().min(0).max(1).optional(),
    /** Seeds the rule's own random stream, so which requests a probability hits repeats. */
    seed: z.int().optional(),
    /** Cluster time after which the rule no longer fires (RFC 3339). */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    /** Cluster seconds from now after which the rule no longer fires (becomes expiresAt). */
    ttlSeconds: z.number().positive().optional(),
  })
  .refine((r) => FAULT_KEYS.some((key) => r[key] !== undefined), {
    message: `must name at least one fault: ${FAULT_KEYS.join(', ')}`,
  })
  .refine((r) => r.expiresAt === undefined || r.ttlSeconds === undefined, { message: 'give expiresAt or ttlSeconds, not both', path: ['ttlSeconds'] });

export type FaultRuleSpec = z.output<typeof FaultRuleSpecSchema>;
/** FaultMatch is the part of a rule that selects requests. */
export type FaultMatch = Pick<FaultRuleSpec, (typeof MATCH_KEYS)[number]>;
/** Fault is the part of a rule that says what it does. */
export type Fault = Pick<FaultRuleSpec, (typeof FAULT_KEYS)[number]>;

/** parseFaultRule validates a posted rule. Throws ApiError 422 (FaultRule.kubesim.io) with one
 * cause per bad field, e.g. `match.verbs[0]: Unsupported value: "updat"`. */
export function parseFaultRule(input: unknown): FaultRuleSpec {
  const result = FaultRuleSpecSchema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const id = typeof input === 'object' && input !== null && typeof (input as { id?: unknown }).id === 'string' ? (input as { id: string }).id : '';
  throw invalid({ group: 'kubesim.io', resource: 'faults', kind: 'FaultRule', name: id }, result.error.issues.flatMap(fieldErrorsOf));
}

/** fieldErrorsOf words a zod issue as Kubernetes field errors; an unknown key names itself. */
function fieldErrorsOf(issue: z.core.$ZodIssue): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ type: 'FieldValueForbidden', field: [...issue.path, key].join('.'), detail: 'unknown field' }));
  }
  if (issue.code === 'invalid_type' && issue.input !== undefined) {
    // The whole body has no field name of its own.
    const field = issue.path.length === 0 ? 'body' : toFieldError(issue).field;
    return [{ type: 'FieldValueTypeInvalid', field, value: issue.input, detail: `must be of type ${issue.expected}` }];
  }
  // The one rule-level issue without a path: a rule that names no fault.
  if (issue.code === 'custom' && issue.path.length === 0) return [{ type: 'FieldValueRequired', field: 'fault', detail: issue.message }];
  return [toFieldError(issue)];
}

/** isRegexPattern says whether a match pattern is a `/regex/` rather than a plain string. */
export function isRegexPattern(text: string): boolean {
  return text.length >= 2 && text.startsWith('/') && text.endsWith('/');
}

function compiles(source: string): boolean {
  try {
    compileRe2(source);
    return true;
  } catch {
    return false;
  }
}

/** FaultRuleInput is what FaultInjector.add accepts (validated there, as a posted body is). */
export type FaultRuleInput = z.input<typeof FaultRuleSpecSchema>;
