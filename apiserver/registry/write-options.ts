/** WriteOptions are what every write request may carry. */
import type { AdmissionContext } from '../admission/chain.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { FieldTracker } from '../fieldmanager/field-tracker.js';

/** AsyncConversion converts between a served version and the stored one when that takes a
 * round trip (a CRD's conversion webhook); without it the write converts synchronously
 * (toServed/toStored). */
export interface AsyncConversion {
  toServed(stored: KubeObject): Promise<KubeObject>;
  toStored(served: KubeObject): Promise<KubeObject>;
}

export interface WriteOptions extends AdmissionContext {
  /** dryRun=All: run every step but do not persist. */
  dryRun: boolean;
  /** Maintains metadata.managedFields for the write (create, update, patch, apply, /status,
   * /scale); absent for the server's own writes that Kubernetes does not track (bindings,
   * deletion bookkeeping). */
  fieldTracker?: FieldTracker;
  conversion?: AsyncConversion;
}
