/** `kubesim fault add|list|injected|delete|clear`: the fault rules of a running cluster (the
 * one the kubeconfig names), through /apis/kubesim.io/v1alpha1/faults (docs/fault-injection.md). */
import { parseDuration } from '../../apiserver/api/machinery/duration.js';
import type { FaultRule, InjectedEffect, InjectedFault } from '../../apiserver/faults/types.js';
import { FAULTS_PATH, INJECTED_FAULTS_PATH } from '../../apiserver/kubesim/fault-routes.js';
import { type FlagSpec, type Flags, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { call } from './component-control.js';
import { formatTable } from './node.js';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  verb: { type: 'string', description: 'match these verbs (comma-separated): get,list,watch,create,update,patch,delete,deletecollection' },
  resource: { type: 'string', description: 'match a resource: plural (pods) or plural.group (deployments.apps)' },
  subresource: { type: 'string', description: 'match a subresource (status, scale, …)' },
  namespace: { type: 'string', description: 'match a namespace' },
  name: { type: 'string', description: 'match an object name' },
  'user-agent': { type: 'string', description: 'match a User-Agent containing this (or /regex/)' },
  'field-manager': { type: 'string', description: 'match a field manager (or /regex/)' },
  user: { type: 'string', description: 'match a user: the bearer token of the request (or /regex/)' },
  error: { type: 'number', description: 'answer 409, 429, 500 or 503' },
  'retry-after': { type: 'number', description: 'Retry-After seconds of the error (429 defaults to 1)' },
  message: { type: 'string', description: 'message of the error Status' },
  latency: { type: 'string', description: 'delay matching requests (200ms, 1.5s)' },
  'close-watches': { type: 'boolean', description: 'end the matching watches open now' },
  'close-watches-after': { type: 'number', description: 'end each matching watch opened later after N events' },
  'refuse-resume': { type: 'boolean', description: 'answer watches resuming from a resourceVersion with 410 Expired' },
  'withhold-bookmarks': { type: 'boolean', description: 'send no bookmarks on matching watches' },
  compact: { type: 'boolean', description: 'compact the history to the current revision on a matching request' },
  count: { type: 'number', description: 'fire at most this many times' },
  probability: { type: 'number', description: 'fire with this probability (0..1)' },
  seed: { type: 'number', description: "seed of the rule's random draws (repeatable probability)" },
  ttl: { type: 'string', description: 'stop firing after this much cluster time (30s, 5m)' },
  'expires-at': { type: 'string', description: 'stop firing at this cluster time (RFC 3339)' },
  id: { type: 'string', description: 'name the rule (default fault-N)' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim fault add [flags] | list | injected | delete ID | clear

  add        add a rule: match flags select requests, fault flags say what they get
  list       the rules, how often each fired, whether it is still active
  injected   every fault injected so far
  delete ID  remove one rule
  clear      remove every rule

Examples:
  kubesim fault add --verb update --resource deployments.apps --error 409 --count 2
  kubesim fault add --latency 200ms --user-agent kubectl
  kubesim fault add --close-watches --resource pods

Flags:
${formatFlagHelp(flags)}`;

export async function fault(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  const [action, id] = positional;
  if (parsed['help'] || !action) return void console.log(usage);
  const kubeconfig = String(parsed['kubeconfig']);
  switch (action) {
    case 'add': {
      const rule = (await call(kubeconfig, 'POST', FAULTS_PATH, ruleFromFlags(parsed))) as FaultRule;
      return void console.log(`${rule.id} added: ${describeMatch(rule)} → ${describeFault(rule)}`);
    }
    case 'list':
      return void console.log(ruleTable(((await call(kubeconfig, 'GET', FAULTS_PATH)) as { items: FaultRule[] }).items));
    case 'injected':
      return void console.log(injectedTable(((await call(kubeconfig, 'GET', INJECTED_FAULTS_PATH)) as { items: InjectedFault[] }).items));
    case 'delete':
      if (!id) throw new UsageError('usage: kubesim fault delete ID   (see `kubesim fault list`)');
      await call(kubeconfig, 'DELETE', `${FAULTS_PATH}/${encodeURIComponent(id)}`);
      return void console.log(`${id} deleted`);
    case 'clear': {
      const removed = (await call(kubeconfig, 'DELETE', FAULTS_PATH)) as { items: FaultRule[] };
      return void console.log(`${removed.items.length} rule(s) deleted`);
    }
    default:
      throw new UsageError(`unknown action ${JSON.stringify(action)}\n\n${usage}`);
  }
}

/** ruleFromArgs builds the FaultRule body of `kubesim fault add <argv>`; the server validates
 * it. Throws UsageError for an unknown flag or a bad duration. */
export function ruleFromArgs(argv: string[]): Record<string, unknown> {
  return ruleFromFlags(parseFlags(argv, flags).flags);
}

function ruleFromFlags(parsed: Flags): Record<string, unknown> {
  const text = (name: string) => (parsed[name] === undefined ? undefined : String(parsed[name]));
  const number = (name: string) => (parsed[name] === undefined ? undefined : Number(parsed[name]));
  const rule: Record<string, unknown> = {
    id: text('id'),
    verbs: text('verb')
      ?.split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
    resource: text('resource'),
    subresource: text('subresource'),
    namespace: text('namespace'),
    name: text('name'),
    userAgent: text('user-agent'),
    fieldManager: text('field-manager'),
    user: text('user'),
    error: errorOf(number('error'), number('retry-after'), text('message')),
    latencyMs: durationMs('latency', text('latency')),
    closeWatches: closeWatchesOf(parsed['close-watches'] === true, number('close-watches-after')),
    refuseWatchResume: parsed['refuse-resume'] === true || undefined,
    withholdBookmarks: parsed['withhold-bookmarks'] === true || undefined,
    compact: parsed['compact'] === true || undefined,
    count: number('count'),
    probability: number('probability'),
    seed: number('seed'),
    ttlSeconds: parsed['ttl'] === undefined ? undefined : (durationMs('ttl', text('ttl')) ?? 0) / 1000,
    expiresAt: text('expires-at'),
  };
  return Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined));
}

function errorOf(code: number | undefined, retryAfterSeconds: number | undefined, message: string | undefined): unknown {
  if (code === undefined) {
    if (retryAfterSeconds !== undefined || message !== undefined) throw new UsageError('--retry-after and --message go with --error');
    return undefined;
  }
  if (retryAfterSeconds === undefined && message === undefined) return code;
  return { code, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }), ...(message !== undefined && { message }) };
}

function closeWatchesOf(open: boolean, afterEvents: number | undefined): unknown {
  if (afterEvents === undefined) return open || undefined;
  return { open, afterEvents };
}

function durationMs(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    return Math.round(parseDuration(text));
  } catch (err) {
    throw new UsageError(`--${flag}: ${(err as Error).message} (use a duration such as 200ms, 1.5s, 5m)`);
  }
}

/** describeMatch words a rule's match fields: `update deployments.apps ns=default ua~kubectl`. */
export function describeMatch(rule: FaultRule): string {
  const resource = rule.resource ? `${rule.resource}${rule.subresource ? `/${rule.subresource}` : ''}` : rule.subresource ? `*/${rule.subresource}` : undefined;
  const parts = [
    rule.verbs?.join(','),
    resource,
    rule.namespace && `ns=${rule.namespace}`,
    rule.name && `name=${rule.name}`,
    rule.userAgent && `ua~${rule.userAgent}`,
    rule.fieldManager && `manager=${rule.fieldManager}`,
    rule.user && `user=${rule.user}`,
  ].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(' ') : 'every request';
}

/** describeFault words what a rule does and when: `error 409, latency 200ms (count 2, p=0.5)`. */
export function describeFault(rule: FaultRule): string {
  const parts = [
    rule.error && `error ${rule.error.code}${rule.error.retryAfterSeconds ? ` retry-after ${rule.error.retryAfterSeconds}s` : ''}`,
    rule.latencyMs && `latency ${rule.latencyMs}ms`,
    rule.closeWatches?.open && 'close open watches',
    rule.closeWatches?.afterEvents !== undefined && `close watches after ${rule.closeWatches.afterEvents} events`,
    rule.refuseWatchResume && 'refuse watch resumes',
    rule.withholdBookmarks && 'withhold bookmarks',
    rule.compact && 'compact history',
  ].filter((p): p is string => !!p);
  const limits = [
    rule.count !== undefined && `count ${rule.count}`,
    rule.probability !== undefined && `p=${rule.probability}`,
    rule.expiresAt && `until ${rule.expiresAt}`,
  ].filter((p): p is string => !!p);
  return `${parts.join(', ')}${limits.length > 0 ? ` (${limits.join(', ')})` : ''}`;
}

function ruleTable(rules: FaultRule[]): string {
  const rows = rules.map((r) => [r.id, describeMatch(r), describeFault(r), String(r.status.fired), r.status.active ? 'active' : 'done']);
  return formatTable([['ID', 'MATCH', 'FAULT', 'FIRED', 'STATE'], ...rows]);
}

function injectedTable(faults: InjectedFault[]): string {
  const rows = faults.map((f) => [
    f.time,
    f.ruleId,
    `${f.request.verb} ${f.request.url}`,
    f.request.userAgent ?? '',
    f.injected.map(describeEffect).join(', '),
  ]);
  return formatTable([['TIME', 'RULE', 'REQUEST', 'USER-AGENT', 'INJECTED'], ...rows]);
}

function describeEffect(effect: InjectedEffect): string {
  switch (effect.type) {
    case 'error':
      return `error ${effect.code}`;
    case 'latency':
      return `latency ${effect.latencyMs}ms`;
    case 'compact':
      return 'compacted history';
    case 'closeWatch':
      return effect.afterEvents === undefined ? 'closed watch' : `close watch after ${effect.afterEvents} events`;
    case 'refuseWatchResume':
      return `refused resume from ${effect.resourceVersion}`;
    case 'withholdBookmarks':
      return 'withheld bookmarks';
    default: {
      const unreachable: never = effect;
      return String(unreachable);
    }
  }
}
