/**
 * The webhook configurations a server calls, kept in memory and current from the store (as
 * kube-apiserver's configuration managers read informers): listed once, then followed by a
 * watch, so a request never reads the store for them. One cache per store, started on first
 * use; the watch ends when the store closes.
 */
import type { Store, StoreWatch } from '../../../store/index.js';
import type { Webhook } from '../../api/admissionregistration/webhook.js';

export type WebhookKind = 'mutating' | 'validating';

const RESOURCES: Record<WebhookKind, string> = {
  mutating: 'mutatingwebhookconfigurations.admissionregistration.k8s.io',
  validating: 'validatingwebhookconfigurations.admissionregistration.k8s.io',
};

/** ConfiguredWebhook is one webhook with the configuration it came from. */
export interface ConfiguredWebhook {
  webhook: Webhook;
  configuration: string;
}

class WebhookConfigurations {
  private webhooks: ConfiguredWebhook[] = [];
  private watch: StoreWatch | undefined;

  constructor(
    private readonly store: Store,
    private readonly resource: string,
  ) {}

  /** current returns the webhooks, sorted by configuration name as kube-apiserver sorts them. */
  current(): readonly ConfiguredWebhook[] {
    if (!this.watch) this.relist();
    return this.webhooks;
  }

  private relist(): void {
    const { items, revision } = this.store.list({ resource: this.resource });
    const configurations = items
      .map((item) => item as unknown as { metadata: { name?: string }; webhooks?: Webhook[] })
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    this.webhooks = configurations.flatMap((c) => (c.webhooks ?? []).map((webhook) => ({ webhook, configuration: c.metadata.name ?? '' })));
    this.follow(revision);
  }

  private relistQuietly(): void {
    try {
      this.relist();
    } catch {
      // The store closed: nothing left to serve.
      this.watch = undefined;
    }
  }

  /** follow re-lists after every change (configurations change rarely; requests are many). */
  private follow(revision: number): void {
    const watch = this.store.watch({ resource: this.resource, afterRevision: revision });
    this.watch = watch;
    void (async () => {
      for await (const message of watch) {
        if (message.type === 'BOOKMARK') continue;
        watch.close();
        this.relistQuietly();
        return;
      }
      // The store closed, or the watch fell behind: list afresh on next use.
      if (this.watch === watch) this.watch = undefined;
    })();
  }
}

const caches = new WeakMap<Store, Record<WebhookKind, WebhookConfigurations>>();

/** webhooksOf returns the current webhooks of one kind for the server backed by `store`. */
export function webhooksOf(store: Store, kind: WebhookKind): readonly ConfiguredWebhook[] {
  let cache = caches.get(store);
  if (!cache) {
    cache = { mutating: new WebhookConfigurations(store, RESOURCES.mutating), validating: new WebhookConfigurations(store, RESOURCES.validating) };
    caches.set(store, cache);
  }
  return cache[kind].current();
}
