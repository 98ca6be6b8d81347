/**
 * ActivityBoard is the API server's view of what every loop of the cluster is doing: in-process
 * components register a probe read on demand; component processes push reports over HTTP
 * (PUT /apis/kubesim.io/v1alpha1/activity/{component}). `settle` and the live view read it.
 */
import { busyLoops, type ComponentActivity } from '../api/machinery/activity.js';

/** A pushed report older than this (wall time) is from a component that stopped reporting. A
 * busy component repeats its report every second: one silent for 3 s is gone, and its work must
 * not hold `settle` up. An idle one repeats it every 5 s (IDLE_HEARTBEAT_MS of
 * activity-reporter.ts, so idle processes stay quiet): its report is kept three times as long. */
export const STALE_REPORT_MS = { busy: 3_000, idle: 15_000 } as const;

interface Report {
  activity: ComponentActivity;
  receivedAtMs: number;
  /** How long the report counts (wall ms): STALE_REPORT_MS for what it says. */
  keepMs: number;
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
    // As the reporter judges it: delayed work counts whether or not the clock runs.
    const busy = busyLoops([activity], true).length > 0;
    this.reports.set(activity.component, { activity, receivedAtMs: Date.now(), keepMs: busy ? STALE_REPORT_MS.busy : STALE_REPORT_MS.idle });
  }

  /** forget drops a component's reports (it stopped). */
  forget(component: string): void {
    this.reports.delete(component);
  }

  /** current lists every component's activity: probes read now, fresh reports as received. */
  current(): ComponentActivity[] {
    const now = Date.now();
    const pushed = [...this.reports.values()].filter((r) => now - r.receivedAtMs <= r.keepMs).map((r) => r.activity);
    return [...[...this.probes.values()].map((probe) => probe()), ...pushed];
  }
}
