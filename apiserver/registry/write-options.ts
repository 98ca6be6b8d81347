/** WriteOptions are what every write request may carry. */
import type { FieldTracker } from '../fieldmanager/field-tracker.js';

export interface WriteOptions {
  /** dryRun=All: run every step but do not persist. */
  dryRun: boolean;
  /** Maintains metadata.managedFields for the write (create, update, patch, apply, /status,
   * /scale); absent for the server's own writes that Kubernetes does not track (bindings,
   * deletion bookkeeping). */
  fieldTracker?: FieldTracker;
  /** Receives admission warnings (the `Warning` response header). */
  warnings?: string[];
}
