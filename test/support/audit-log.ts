/** Reading an audit log (one JSON audit.k8s.io/v1 Event per line) in tests. */
import { readFileSync } from 'node:fs';

/** A logged event: the fields tests look up by name, and the rest as JSON gave them. */
export interface LoggedEvent {
  auditID: string;
  stage: string;
  [field: string]: any;
}

/** readAuditLog parses every event in the log at `path`, in the order they were written. */
export function readAuditLog(path: string): LoggedEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedEvent);
}
