/**
 * A digest of a JSON value that does not depend on the order of object keys: two values that are
 * the same JSON value have the same fingerprint, and different ones (in practice) never do.
 */
export interface Fingerprint {
  of(value: unknown): string;
}
