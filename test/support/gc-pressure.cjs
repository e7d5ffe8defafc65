/**
 * Preloaded (NODE_OPTIONS=--require) into `npm start` by the SQLite soak test. Every
 * GC_PRESSURE_MS it allocates about 1 MB of short-lived objects in a hot function, so that V8
 * compiles it and the young generation fills from compiled code many times a second. A
 * collection that starts there runs with no JavaScript context entered (V8 calls its allocation
 * runtime without one), and it frees whatever the service let go of since the last one: the
 * read-only SQLite connections of finished whole lists and their statements among them. A
 * native addon that needs a context in its destructors (better-sqlite3 12 built against Node.js
 * 24.19+'s headers, Node.js issue 65446) aborts the process there. Forced collections (`gc()`)
 * would not show it: they run inside a call from JavaScript, with its context.
 *
 * NODE_OPTIONS reaches npm, its shell and tsc too: only the service's own process allocates.
 */
const path = require('node:path');

const everyMs = Number(process.env.GC_PRESSURE_MS);
const entry = process.argv[1] ?? '';
if (everyMs > 0 && entry.endsWith(path.join('dist', 'src', 'main.js'))) {
  let kept;
  const churn = (count) => {
    for (let i = 0; i < count; i++) kept = { i, at: kept === undefined ? 0 : 1 };
  };
  setInterval(() => churn(32_768), everyMs).unref();
}
