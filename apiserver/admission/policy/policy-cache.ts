/**
 * The policies and bindings admission evaluates, kept in memory per store (kube-apiserver's
 * informers): a watch on each kind marks the cache stale, and the next request re-reads the
 * two lists once. Between changes a request reads nothing from the store. As with informers,
 * a policy applies shortly after its write returns, not necessarily to the very next request.
 */
import type { Store, StoreWatch } from '../../../store/index.js';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api/admissionregistration/admission-policy.js';
import { type CompiledPolicy, compilePolicy } from './compile-policy.js';

export const POLICIES = 'validatingadmissionpolicies.admissionregistration.k8s.io';
export const BINDINGS = 'validatingadmissionpolicybindings.admissionregistration.k8s.io';

/** PolicyHook is one policy with its compiled expressions and its bindings (by name). */
export interface PolicyHook {
  policy: ValidatingAdmissionPolicy;
  compiled: CompiledPolicy;
  bindings: ValidatingAdmissionPolicyBinding[];
}

const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');

class PolicyCache {
  private stale = true;
  private hooks: PolicyHook[] = [];
  /** Compiled policies by name, reused while the spec (uid and generation) is unchanged: a
   * status write (type checking) does not recompile. */
  private compiled = new Map<string, { version: string; hook: Omit<PolicyHook, 'bindings'> }>();

  constructor(private readonly store: Store) {
    this.follow(POLICIES);
    this.follow(BINDINGS);
  }

  /** current returns the policies that have at least one binding, sorted by name. */
  current(): readonly PolicyHook[] {
    if (this.stale) this.reload();
    return this.hooks;
  }

  private reload(): void {
    this.stale = false;
    const policies = this.store.list({ resource: POLICIES }).items as unknown as ValidatingAdmissionPolicy[];
    const bindings = (this.store.list({ resource: BINDINGS }).items as unknown as ValidatingAdmissionPolicyBinding[]).sort(byName);
    const compiled = new Map<string, { version: string; hook: Omit<PolicyHook, 'bindings'> }>();
    const hooks: PolicyHook[] = [];
    for (const policy of policies.sort(byName)) {
      const name = policy.metadata?.name ?? '';
      const version = `${policy.metadata?.uid}/${policy.metadata?.generation}`;
      const previous = this.compiled.get(name);
      const hook = previous?.version === version ? previous.hook : { policy, compiled: compilePolicy(policy.spec ?? {}) };
      compiled.set(name, { version, hook });
      const bound = bindings.filter((b) => b.spec?.policyName === name);
      if (bound.length > 0) hooks.push({ ...hook, bindings: bound });
    }
    this.compiled = compiled;
    this.hooks = hooks;
  }

  private follow(resource: string): void {
    let watch: StoreWatch;
    try {
      watch = this.store.watch({ resource, afterRevision: this.store.currentRevision });
    } catch {
      return; // a closed store: nothing more will change
    }
    void (async () => {
      for await (const message of watch) if (message.type !== 'BOOKMARK') this.stale = true;
      // A watch cut off as too slow starts again from now; everything is re-read.
      if (watch.endReason === 'too-slow') {
        this.stale = true;
        this.follow(resource);
      }
    })();
  }
}

const caches = new WeakMap<Store, PolicyCache>();

/** policyHooks returns the bound policies of the store's cluster (a watch starts on first use). */
export function policyHooks(store: Store): readonly PolicyHook[] {
  let cache = caches.get(store);
  if (!cache) {
    cache = new PolicyCache(store);
    caches.set(store, cache);
  }
  return cache.current();
}
