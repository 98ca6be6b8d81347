/**
 * RestClientMetrics records one API client's requests in rest_client_requests_total and
 * rest_client_request_duration_seconds (client-go's families), resolving each (method, code)
 * series once per client.
 */
import type { CounterSeries, HistogramSeries } from '../../../apiserver/api/machinery/metric-series.js';
import { processMetrics } from './process-metrics.js';

export class RestClientMetrics {
  private readonly requests = new Map<string, CounterSeries>();
  private readonly durations = new Map<string, HistogramSeries>();

  constructor(private readonly host: string) {}

  /** record counts a request by its method and status code (`<error>` when none came back). */
  record(method: string, code: number | '<error>', seconds: number): void {
    const key = `${method} ${code}`;
    let counter = this.requests.get(key);
    if (!counter) {
      counter = processMetrics.restRequests.series({ code: String(code), method, host: this.host });
      this.requests.set(key, counter);
    }
    counter.inc();
    let duration = this.durations.get(method);
    if (!duration) {
      duration = processMetrics.restDuration.series({ verb: method, host: this.host });
      this.durations.set(method, duration);
    }
    duration.observe(seconds);
  }
}
