import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { Fingerprint } from '../../application';

/**
 * SHA-256 (hex) of the value's JSON with object keys sorted: key order does not change it, and
 * fields that JSON leaves out (undefined) are left out here too.
 */
export const sha256JsonFingerprint: Fingerprint = {
  of: (value) =>
    createHash('sha256')
      .update(stringify(value) ?? 'undefined')
      .digest('hex'),
};
