/**
 * The kubesim.io state that must be one for the whole cluster, however many API servers serve
 * it: the cluster clock and the fault rules. It lives in one record in the store, the Lease
 * kube-system/kubesim.io-cluster-state (a Lease, so `kubesim reset` keeps it as it keeps every
 * kube-system lease): the clock's state in the kubesim.io/clock annotation, the rules in
 * kubesim.io/fault-rules, and the server that last changed either in holderIdentity.
 *
 * Every server follows the record: a clock state another server wrote is applied to the local
 * clock (a jump forward fires the due timers in order, as a component process following the
 * clock does), a rule list replaces the local rules. A change made on this server (the clock
 * API, the fault API, chaos) is written to the record as it happens: a handful of writes per
 * steering command, none per request. How often a rule fired, and so its `count` limit, is
 * counted by each server for the requests it serves.
 */
import type { StoreWatch } from '../../store/index.js';
import type { ClockState, ClusterClock } from '../api/machinery/cluster-clock.js';
import { rfc3339Micro } from '../api/machinery/time.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { ObjectWriter } from '../controlplane/writes.js';
import type { FaultInjector, RuleChange } from '../faults/injector.js';
import type { FaultRule } from '../faults/types.js';
import { LEASE, LEASE_NAMESPACE } from './api-server-leases.js';

export const CLUSTER_STATE_NAME = 'kubesim.io-cluster-state';
export const CLOCK_ANNOTATION = 'kubesim.io/clock';
export const FAULT_RULES_ANNOTATION = 'kubesim.io/fault-rules';

/** What the record says of the clock: its state, and which server wrote it. */
interface SharedClock {
  state: ClockState;
  by: string;
}

export interface SharedStateOptions {
  writer: ObjectWriter;
  /** This server's name (its Lease's): the author of what it writes. */
  serverName: string;
  clock?: ClusterClock;
  faults: FaultInjector;
  logger?: { error(details: object, message: string): void };
}

/** SharedState keeps the local clock and rules in step with the record (see the file comment). */
export class SharedState {
  private watch: StoreWatch | undefined;
  private readonly unsubscribe: Array<() => void> = [];
  /** Set while a state from the record is being applied: the clock's change is not ours to write. */
  private applying = false;
  /** The last clock annotation seen, so an unrelated change of the record applies nothing. */
  private lastClockText: string | undefined;
  private lastRulesText: string | undefined;
  private stopped = false;

  constructor(private readonly options: SharedStateOptions) {}

  /** start joins the cluster's state (or founds it: the first server's clock is the cluster's),
   * then follows the record and publishes local changes. */
  async start(): Promise<void> {
    const { clock, faults, writer } = this.options;
    const record = this.read();
    if (!record) this.publish({ clock: clock && this.clockText(clock.state()), rules: '[]' });
    else await this.follow(record);
    if (clock) this.unsubscribe.push(clock.onChange((state) => !this.applying && this.publish({ clock: this.clockText(state) })));
    this.unsubscribe.push(faults.observe((change) => this.publishRuleChange(change)));
    const resource = writer.ctx.registry.findByKind(LEASE.apiVersion, LEASE.kind)!.storage.resource;
    this.followRecord(resource);
  }

  stop(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.watch?.close();
  }

  private followRecord(resource: string): void {
    const store = this.options.writer.ctx.store;
    this.watch = store.watch({ resource, namespace: LEASE_NAMESPACE, afterRevision: store.currentRevision });
    const watch = this.watch;
    void (async () => {
      for await (const message of watch) {
        if (message.type === 'BOOKMARK' || message.ref.name !== CLUSTER_STATE_NAME || message.type === 'DELETED') continue;
        await this.follow(message.object as KubeObject).catch((err: unknown) =>
          this.options.logger?.error({ err }, 'following the shared cluster state failed'),
        );
      }
      if (!this.stopped && watch.endReason === 'too-slow') {
        const record = this.read();
        if (record) await this.follow(record);
        this.followRecord(resource);
      }
    })();
  }

  /** follow applies what the record says and this server does not have yet. */
  private async follow(record: KubeObject): Promise<void> {
    const annotations = record.metadata.annotations ?? {};
    const rulesText = annotations[FAULT_RULES_ANNOTATION];
    if (rulesText !== undefined && rulesText !== this.lastRulesText) {
      this.lastRulesText = rulesText;
      this.options.faults.adopt(parseJson<FaultRule[]>(rulesText) ?? []);
    }
    const clockText = annotations[CLOCK_ANNOTATION];
    const { clock } = this.options;
    if (!clock || clockText === undefined || clockText === this.lastClockText) return;
    this.lastClockText = clockText;
    const shared = parseJson<SharedClock>(clockText);
    if (!shared || shared.by === this.options.serverName) return;
    this.applying = true;
    try {
      await clock.apply(shared.state);
    } finally {
      this.applying = false;
    }
  }

  private publishRuleChange(change: RuleChange): void {
    this.publish({
      rules: (current) => {
        if (change.type === 'cleared') return [];
        const others = current.filter((rule) => rule.id !== (change.type === 'added' ? change.rule.id : change.id));
        return change.type === 'added' ? [...others, change.rule] : others;
      },
    });
  }

  /** publish writes the clock state and/or the rules (a new list, or a change of the current
   * one, retried on conflict by the update) to the record, creating it when missing. */
  private publish(change: { clock?: string; rules?: string | ((current: FaultRule[]) => FaultRule[]) }): void {
    const { writer, serverName } = this.options;
    const annotationsOf = (current: Record<string, string>): Record<string, string> => {
      const next = { ...current };
      if (change.clock !== undefined) next[CLOCK_ANNOTATION] = change.clock;
      if (typeof change.rules === 'string') next[FAULT_RULES_ANNOTATION] = change.rules;
      else if (change.rules) next[FAULT_RULES_ANNOTATION] = JSON.stringify(change.rules(parseJson<FaultRule[]>(current[FAULT_RULES_ANNOTATION] ?? '[]') ?? []));
      return next;
    };
    const spec = () => ({ holderIdentity: serverName, renewTime: rfc3339Micro(this.options.clock?.now() ?? Date.now()) });
    try {
      if (!this.read()) {
        const annotations = annotationsOf({});
        writer.create(LEASE, LEASE_NAMESPACE, { metadata: { name: CLUSTER_STATE_NAME, annotations }, spec: spec() });
        // Lost a race to found the record: follow the winner's instead.
        const record = this.read();
        if (record && record.metadata.annotations?.[CLOCK_ANNOTATION] !== annotations[CLOCK_ANNOTATION]) void this.follow(record);
        return;
      }
      writer.update(LEASE, LEASE_NAMESPACE, CLUSTER_STATE_NAME, 'main', (record) => {
        record.metadata.annotations = annotationsOf(record.metadata.annotations ?? {});
        record['spec'] = { ...(record['spec'] as object), ...spec() };
      });
    } catch (err) {
      this.options.logger?.error({ err }, 'writing the shared cluster state failed');
    }
  }

  private clockText(state: ClockState): string {
    const text = JSON.stringify({ state, by: this.options.serverName } satisfies SharedClock);
    // What this server writes it need not apply when it comes back.
    this.lastClockText = text;
    return text;
  }

  private read(): KubeObject | undefined {
    return this.options.writer.read(LEASE, LEASE_NAMESPACE, CLUSTER_STATE_NAME);
  }
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
