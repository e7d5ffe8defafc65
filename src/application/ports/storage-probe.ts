/** Tells whether the storage answers; readiness checks use it, never the request path. */
export interface StorageProbe {
  /** Resolves when a trivial round trip to the storage succeeded; rejects otherwise. */
  ping(): Promise<void>;
}
