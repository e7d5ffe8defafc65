import { judgeNodeVersion } from './node-lines';

/**
 * Imported first by every entry point: on a Node.js line the service does not support, one line
 * that says which lines it runs on, and exit 1, before any dependency loads and fails in its own
 * words (a syntax error, a missing API, a native addon's crash).
 */
const verdict = judgeNodeVersion(process.version);
if (!verdict.supported) {
  console.error(verdict.message);
  process.exit(1);
}

/** What to tell the operator about a supported line past its end of life (Node.js 20), if anything. */
export const nodeLineWarning = verdict.supported ? verdict.warning : undefined;
