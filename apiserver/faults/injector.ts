/**
 * FaultInjector holds the fault rules of one API server and decides, request by request,
 * which of them fire. It performs no effect itself (hooks.ts does: sleeping, failing,
 * compacting, shaping watches), except ending open watches when a rule asks for that.
 *
 * A rule fires for a request when it is active (fired fewer than `count` times, not past
 * `expiresAt` on the cluster clock), its `match` selects the request, some part of its fault
 * applies to the request (watch faults only to watches), and — with a `probability` — its own
 * random stream says so. Every firing is logged and kept in a bounded list.
 */
import { alreadyExists } from '../api/api-error.js';
import { createRandom, type Random } from '../api/machinery/random.js';
import { matchesRequest } from './matcher.js';
import { FAULTS_API_VERSION, type FaultRuleInput, type FaultRuleSpec, parseFaultRule } from './rule-schema.js';
import type { Fault, FaultRequest, FaultRule, InjectedEffect, InjectedFault } from './types.js';

/** FaultLogger is the slice of the fastify logger the injector writes to. */
export interface FaultLogger {
  warn(fields: object, message: string): void;
}

export interface FaultInjectorOptions {
  /** Cluster clock, ms since the epoch (expiry, timestamps). Default: the server's clock. */
  now?: () => number;
  /** Draws for rules without a seed of their own (each rule forks its own stream). */
  random?: Random;
  logger?: FaultLogger;
  /** How many injected faults injected() keeps; the oldest are dropped. Default 1000. */
  historySize?: number;
}

/** Firing is one rule firing for one request, with the effects that apply to it. */
export interface Firing {
  ruleId: string;
  effects: InjectedEffect[];
}

/** RuleChange is one change made to the rules through add, remove or clear (what servers
 * sharing a store pass on to each other: apiserver/shared-cluster). */
export type RuleChange = { type: 'added'; rule: FaultRule } | { type: 'removed'; id: string } | { type: 'cleared' };

interface RuleState {
  rule: FaultRule;
  random: Random;
  expiresAtMs?: number;
}

interface TrackedWatch {
  request: FaultRequest;
  close: () => void;
}

/** FaultInjector knows how to keep fault rules and decide which fire (see the file comment).
 * Not persisted: rules live as long as the server. */
export class FaultInjector {
  private readonly rules = new Map<string, RuleState>();
  private readonly history: InjectedFault[] = [];
  private readonly watches = new Set<TrackedWatch>();
  private readonly historySize: number;
  private now: (() => number) | undefined;
  private logger: FaultLogger | undefined;
  private readonly random: Random;
  private lastId = 0;
  private readonly observers = new Set<(change: RuleChange) => void>();

  constructor(options: FaultInjectorOptions = {}) {
    this.now = options.now;
    this.logger = options.logger;
    this.random = options.random ?? createRandom();
    this.historySize = options.historySize ?? 1000;
  }

  /** attach gives the injector the server's clock and logger where its options set none. */
  attach(server: { now: () => number; logger: FaultLogger }): void {
    this.now ??= server.now;
    this.logger ??= server.logger;
  }

  /** add validates `input` (ApiError 422 naming each bad field; 409 for a taken id), stores the
   * rule and returns it. A rule with closeWatches.open ends the matching open watches now. */
  add(input: FaultRuleInput): FaultRule {
    const spec = parseFaultRule(input);
    if (spec.id !== undefined && this.rules.has(spec.id)) throw alreadyExists({ group: 'kubesim.io', resource: 'faults', name: spec.id });
    const state = this.newState(spec);
    this.rules.set(state.rule.id, state);
    if (spec.closeWatches?.open) this.closeOpenWatches(state);
    this.tell({ type: 'added', rule: this.snapshot(state) });
    return this.snapshot(state);
  }

  /** list returns every rule (copies), in the order added, with its status. */
  list(): FaultRule[] {
    return [...this.rules.values()].map((state) => this.snapshot(state));
  }

  /** get returns one rule (a copy), or undefined. */
  get(id: string): FaultRule | undefined {
    const state = this.rules.get(id);
    return state && this.snapshot(state);
  }

  /** remove deletes a rule; false when there was none with that id. */
  remove(id: string): boolean {
    const removed = this.rules.delete(id);
    if (removed) this.tell({ type: 'removed', id });
    return removed;
  }

  /** clear deletes every rule (the injected log stays). */
  clear(): void {
    this.rules.clear();
    this.tell({ type: 'cleared' });
  }

  /** observe calls `observer` after every add, remove and clear; returns unsubscribe. */
  observe(observer: (change: RuleChange) => void): () => void {
    this.observers.add(observer);
    return () => void this.observers.delete(observer);
  }

  /** adopt makes `rules` the rule set (as another server published it), telling no observer:
   * a rule kept keeps its state (how often it fired here); a new one starts afresh and, with
   * closeWatches.open, ends the matching watches open here. */
  adopt(rules: readonly FaultRule[]): void {
    const next = new Map<string, RuleState>();
    for (const rule of rules) {
      const kept = this.rules.get(rule.id);
      if (kept) {
        next.set(rule.id, kept);
        continue;
      }
      const expiresAtMs = rule.expiresAt !== undefined ? Date.parse(rule.expiresAt) : undefined;
      const random = rule.seed !== undefined ? createRandom(rule.seed) : this.random.fork(`fault:${rule.id}`);
      next.set(rule.id, { rule: { ...structuredClone(rule), status: { fired: 0, active: true } }, random, expiresAtMs });
    }
    const added = [...next.values()].filter((state) => !this.rules.has(state.rule.id));
    this.rules.clear();
    for (const [id, state] of next) this.rules.set(id, state);
    for (const state of added) if (state.rule.closeWatches?.open) this.closeOpenWatches(state);
  }

  private tell(change: RuleChange): void {
    for (const observer of [...this.observers]) observer(change);
  }

  /** injected returns the faults injected so far, oldest first (copies). */
  injected(): InjectedFault[] {
    return structuredClone(this.history);
  }

  clearInjected(): void {
    this.history.length = 0;
  }

  /** fire decides which rules fire for `request`, counts and records them. The caller applies
   * the effects. */
  fire(request: FaultRequest): Firing[] {
    const firings: Firing[] = [];
    for (const state of this.rules.values()) {
      if (!this.isActive(state) || !matchesRequest(state.rule, request)) continue;
      const effects = effectsFor(state.rule, request);
      if (effects.length === 0 || !draw(state)) continue;
      this.record(state, request, effects);
      firings.push({ ruleId: state.rule.id, effects });
    }
    return firings;
  }

  /** trackWatch registers an open watch so that a rule added later can end it with `close`;
   * returns the function that unregisters it (call it when the watch ends). */
  trackWatch(request: FaultRequest, close: () => void): () => void {
    const watch = { request, close };
    this.watches.add(watch);
    return () => this.watches.delete(watch);
  }

  /** openWatches lists the requests of the watches open now (for tests and diagnostics). */
  openWatches(): FaultRequest[] {
    return [...this.watches].map((w) => structuredClone(w.request));
  }

  private newState(spec: FaultRuleSpec): RuleState {
    const now = this.clock();
    const id = spec.id ?? this.nextId();
    const expiresAtMs = spec.ttlSeconds !== undefined ? now + spec.ttlSeconds * 1000 : spec.expiresAt !== undefined ? Date.parse(spec.expiresAt) : undefined;
    // apiVersion/kind are re-stamped; ttlSeconds lives on as expiresAt.
    const { apiVersion: _apiVersion, kind: _kind, id: _id, ttlSeconds: _ttl, expiresAt: _expiresAt, ...rest } = spec;
    const rule: FaultRule = {
      apiVersion: FAULTS_API_VERSION,
      kind: 'FaultRule',
      id,
      ...rest,
      ...(expiresAtMs !== undefined && { expiresAt: new Date(expiresAtMs).toISOString() }),
      createdAt: new Date(now).toISOString(),
      status: { fired: 0, active: true },
    };
    // A seeded rule repeats its choices whatever else draws; an unseeded one forks the server's stream.
    const random = spec.seed !== undefined ? createRandom(spec.seed) : this.random.fork(`fault:${id}`);
    return { rule, random, expiresAtMs };
  }

  private nextId(): string {
    let id: string;
    do id = `fault-${++this.lastId}`;
    while (this.rules.has(id));
    return id;
  }

  private closeOpenWatches(state: RuleState): void {
    for (const watch of [...this.watches]) {
      if (!this.isActive(state)) return;
      if (!matchesRequest(state.rule, watch.request) || !draw(state)) continue;
      this.record(state, watch.request, [{ type: 'closeWatch' }]);
      this.watches.delete(watch);
      watch.close();
    }
  }

  private isActive(state: RuleState): boolean {
    const { count, status } = state.rule;
    if (count !== undefined && status.fired >= count) return false;
    return state.expiresAtMs === undefined || this.clock() < state.expiresAtMs;
  }

  private record(state: RuleState, request: FaultRequest, effects: InjectedEffect[]): void {
    state.rule.status.fired++;
    const { method, url, userAgent, user, verb } = request;
    const entry: InjectedFault = {
      ruleId: state.rule.id,
      time: new Date(this.clock()).toISOString(),
      request: { method, url, ...(userAgent !== undefined && { userAgent }), user, verb },
      injected: effects,
    };
    this.history.push(entry);
    if (this.history.length > this.historySize) this.history.splice(0, this.history.length - this.historySize);
    this.logger?.warn({ fault: entry }, 'fault injected');
  }

  private snapshot(state: RuleState): FaultRule {
    const rule = structuredClone(state.rule);
    rule.status.active = this.isActive(state);
    return rule;
  }

  private clock(): number {
    return (this.now ?? Date.now)();
  }
}

/** effectsFor lists what `fault` does to `request`: latency, compaction and errors to any
 * request; the watch faults only to watches (refusal only to a resume). An error ends the
 * request, so watch faults are dropped beside it. */
export function effectsFor(fault: Fault, request: FaultRequest): InjectedEffect[] {
  const effects: InjectedEffect[] = [];
  if (fault.latencyMs !== undefined) effects.push({ type: 'latency', latencyMs: fault.latencyMs });
  if (fault.compact) effects.push({ type: 'compact' });
  if (fault.error) {
    const retryAfterSeconds = fault.error.retryAfterSeconds ?? (fault.error.code === 429 ? 1 : undefined);
    const { code, message } = fault.error;
    effects.push({ type: 'error', code, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }), ...(message !== undefined && { message }) });
    return effects;
  }
  if (request.verb !== 'watch') return effects;
  if (fault.refuseWatchResume && request.resumeRevision !== undefined) effects.push({ type: 'refuseWatchResume', resourceVersion: request.resumeRevision });
  if (fault.withholdBookmarks) effects.push({ type: 'withholdBookmarks' });
  const afterEvents = fault.closeWatches?.afterEvents;
  if (afterEvents !== undefined) effects.push({ type: 'closeWatch', afterEvents });
  return effects;
}

/** draw says whether a rule with a probability is hit this time (one draw per matching request). */
function draw(state: RuleState): boolean {
  const { probability } = state.rule;
  return probability === undefined || state.random.next() < probability;
}
