/**
 * The admission chain: kube-apiserver's ordered plugin list run around every write made
 * through the REST API (apiserver/registry/{create,update,delete}.ts call it).
 *
 * It stays synchronous for as long as its plugins do: a phase returns a Promise only when a
 * plugin returned one, so a write no plugin handles (or only synchronous ones handle) costs
 * no await. The validating phase ends by calling the write itself, in the same synchronous
 * block as the last plugin — ResourceQuota, last in the order, checks and charges the quota
 * with nothing else able to run before the object is stored.
 */

import { isNotFound } from '../../store/errors.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { ANONYMOUS_USER } from '../authn/authenticator.js';
import type { RegistryContext } from '../registry/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin, AdmissionResult } from './plugin.js';

export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** then continues with `next` at once when `value` is already there, after it otherwise. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

type Phase = 'admit' | 'validate';

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  /** handles: does any plugin look at this write? When none does, callers skip the chain. */
  handles(operation: AdmissionOperation, def: ResourceDefinition, subresource: string): boolean {
    for (const plugin of this.plugins) if (handledBy(plugin, operation, def, subresource)) return true;
    return false;
  }

  /** admit runs the mutating phase; plugins may replace `attributes.object`. */
  admit(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult): MaybePromise<void> {
    return run(this.plugins, 0, 'admit', ctx, attributes, result, noop);
  }

  /** validate runs the validating phase, then `write` right after the last plugin. */
  validate<T>(ctx: RegistryContext, attributes: AdmissionAttributes, result: AdmissionResult, write: () => MaybePromise<T>): MaybePromise<T> {
    return run(this.plugins, 0, 'validate', ctx, attributes, result, write);
  }
}

const noop = (): void => undefined;

function handledBy(plugin: AdmissionPlugin, operation: AdmissionOperation, def: ResourceDefinition, subresource: string): boolean {
  return plugin.handles === undefined || plugin.handles(operation, def, subresource);
}

function run<T>(
  plugins: readonly AdmissionPlugin[],
  from: number,
  phase: Phase,
  ctx: RegistryContext,
  attributes: AdmissionAttributes,
  result: AdmissionResult,
  done: () => MaybePromise<T>,
): MaybePromise<T> {
  for (let i = from; i < plugins.length; i++) {
    const plugin = plugins[i]!;
    const step = plugin[phase];
    if (step === undefined || !handledBy(plugin, attributes.operation, attributes.def, attributes.subresource)) continue;
    const pending = step.call(plugin, ctx, attributes, result);
    if (pending instanceof Promise) return pending.then(() => run(plugins, i + 1, phase, ctx, attributes, result, done));
  }
  return done();
}

/** AdmissionContext is what a REST write carries to run the chain: the chain, and where its
 * warnings go (the response's `Warning:` headers). In-process writers pass none. Plain fields
 * of the write's options, so a write allocates nothing for admission until a plugin handles it. */
export interface AdmissionContext {
  admission?: AdmissionChain;
  warnings?: string[];
}

/** Admission is one write's run of the chain: its attributes and what plugins added. */
export interface Admission {
  chain: AdmissionChain;
  attributes: AdmissionAttributes;
  result: AdmissionResult;
}

/** startAdmission returns the write's Admission, or undefined (and allocates nothing) when
 * there is no chain or no plugin handles the write. */
export function startAdmission(
  ctx: RegistryContext,
  { admission: chain, warnings = [] }: AdmissionContext,
  fields: Omit<AdmissionAttributes, 'user'>,
): Admission | undefined {
  if (chain === undefined || !chain.handles(fields.operation, fields.def, fields.subresource)) return undefined;
  const attributes: AdmissionAttributes = { ...fields, user: ctx.user ?? ANONYMOUS_USER };
  // An audited request's annotations go straight into its audit event.
  return { chain, attributes, result: { warnings, auditAnnotations: ctx.audit?.annotations ?? {} } };
}

/** admitThen runs the mutating phase of `admission` (if any), then `next`. */
export function admitThen<T>(ctx: RegistryContext, admission: Admission | undefined, next: () => MaybePromise<T>): MaybePromise<T> {
  if (admission === undefined) return next();
  return andThen(admission.chain.admit(ctx, admission.attributes, admission.result), next);
}

/** validateThenWrite runs the validating phase of `admission` (if any), then `write` in the
 * same synchronous block as the last plugin. */
export function validateThenWrite<T>(ctx: RegistryContext, admission: Admission | undefined, write: () => MaybePromise<T>): MaybePromise<T> {
  if (admission === undefined) return write();
  return admission.chain.validate(ctx, admission.attributes, admission.result, write);
}

/** admitAndWrite runs both phases for a write the registry does not make itself (pods/binding,
 * pods/eviction: the chain sees the Binding or Eviction object), then `write`. */
export function admitAndWrite<T>(
  ctx: RegistryContext,
  context: AdmissionContext,
  fields: Omit<AdmissionAttributes, 'user'>,
  write: () => MaybePromise<T>,
): MaybePromise<T> {
  const admission = startAdmission(ctx, context, fields);
  return admitThen(ctx, admission, () => validateThenWrite(ctx, admission, write));
}

const perWriteMemo = new WeakMap<AdmissionAttributes, Map<string, unknown>>();

/** perWrite computes `key` once per write: plugins of both phases share what they read (the
 * namespace, its LimitRanges) instead of reading the store again, as kube's plugins share
 * their informers' caches. */
export function perWrite<T>(attributes: AdmissionAttributes, key: string, compute: () => T): T {
  let memo = perWriteMemo.get(attributes);
  if (memo === undefined) perWriteMemo.set(attributes, (memo = new Map()));
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}

/** namespaceOf is the stored namespace of the write, read once per write (undefined when missing). */
export function namespaceOf(ctx: RegistryContext, attributes: AdmissionAttributes): KubeObject | undefined {
  return perWrite(attributes, 'namespace', () => {
    try {
      return ctx.store.get({ resource: 'namespaces', namespace: '', name: attributes.namespace }) as unknown as KubeObject;
    } catch (err) {
      // Only a namespace that is not there is "not found"; a store that failed to answer is
      // that failure, not a claim about the namespace.
      if (isNotFound(err)) return undefined;
      throw err;
    }
  });
}
