/**
 * faults: fault injection for tests of controllers and clients (docs/fault-injection.md).
 * Rules match a client (User-Agent, field manager, bearer-token user) and a request (verb,
 * resource, subresource, namespace, name) and inject errors (409, 429, 500, 503), latency,
 * watch faults (closed streams, refused resumes, withheld bookmarks) or a compaction of the
 * store's history. The server's FaultInjector is `server.faults`; its HTTP face is
 * /apis/kubesim.io/v1alpha1/faults (apiserver/kubesim/fault-routes.ts).
 *
 * Imports: apiserver/api, apiserver/handlers, apiserver/registry, apiserver/api/machinery/random,
 * the store's types. Imported by: apiserver/routes, apiserver/server.ts, the CLI.
 */
export { effectsFor, FaultInjector, type FaultInjectorOptions, type FaultLogger, type Firing } from './injector.js';
export { matchesPattern, matchesRequest } from './matcher.js';
export {
  FAULT_ERROR_CODES,
  FAULTS_API_VERSION,
  type FaultRuleInput,
  FaultRuleSpecSchema,
  parseFaultRule,
} from './rule-schema.js';
export type { Fault, FaultErrorCode, FaultMatch, FaultRequest, FaultRule, FaultRuleSpec, FaultRuleStatus, InjectedEffect, InjectedFault } from './types.js';
