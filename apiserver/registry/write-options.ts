/** WriteOptions are what every write request may carry. */
export interface WriteOptions {
  /** dryRun=All: run every step but do not persist. */
  dryRun: boolean;
}
