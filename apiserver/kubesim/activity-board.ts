/**
 * ActivityBoard is the API server's view of what every loop of the cluster is doing: in-process
 * components register a probe read on demand; component processes push reports over HTTP
 * (PUT /apis/kubesim.io/v1alpha1/activity/{component}). `settle` and the live view read it.
 */
import type { ComponentActivity } from '../api/machinery/activity.js';

/** A pushed report older than this (wall time) is from a component that stopped reporting. */
export const STALE_REPORT_MS = 3_000;

interface Report {
  activity: ComponentActivity;
  receivedAtMs: number;
}

export class ActivityBoard {
  private readonly probes = new Map<string, () => ComponentActivity>();
  private readonly reports = new Map<string, Report>();

  /** register adds an in-process component; returns a function that removes it. */
  register(component: string, probe: () => ComponentActivity): () => void {
    this.probes.set(component, probe);
    return () => {
      if (this.probes.get(component) === probe) this.probes.delete(component);
    };
  }

  /** report records a component process's latest activity. */
  report(activity: ComponentActivity): void {
    this.reports.set(activity.component, { activity, receivedAtMs: Date.now() });
  }

  /** forget drops a component's reports (it stopped). */
  forget(component: string): void {
    this.reports.delete(component);
  }

  /** current lists every component's activity: probes read now, fresh reports as received. */
  current(): ComponentActivity[] {
    const fresh = Date.now() - STALE_REPORT_MS;
    const pushed = [...this.reports.values()].filter((r) => r.receivedAtMs >= fresh).map((r) => r.activity);
    return [...[...this.probes.values()].map((probe) => probe()), ...pushed];
  }
}
