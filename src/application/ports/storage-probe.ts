/** Tells what the storage can serve now; readiness checks use it, never the request path. */
export interface StorageProbe {
  /** Resolves when reads can be served (a replica or the primary answered a trivial query); rejects otherwise. */
  pingReads(): Promise<void>;
  /** Resolves when writes can be served (the primary answered and takes writes); rejects otherwise. */
  pingWrites(): Promise<void>;
}
