/**
 * Preloaded (node --require) into the built service by the tracing test. When the process
 * exits it prints one JSON line naming every @opentelemetry package it loaded, and whether
 * node:http's server was patched (the http instrumentation wraps Server.prototype.emit).
 */
const http = require('node:http');

const originalEmit = http.Server.prototype.emit;
process.once('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file);
    if (match) packages.add(match[1]);
  }
  const line = {
    probe: 'modules',
    opentelemetry: [...packages].sort(),
    httpPatched: http.Server.prototype.emit !== originalEmit,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
});
