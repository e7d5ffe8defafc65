/**
 * Preloaded (node --require) into a tool a test starts, such as Prism: a connection to any host
 * other than the loopback interface is refused and named on stderr, so the test can show that
 * the tool reached nothing but the local service.
 */
const net = require('node:net');

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const connect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function connectToLoopbackOnly(...args) {
  // net.connect hands over [options, callback] already normalised; a direct call may pass (port, host).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const host = typeof first === 'object' && first !== null ? first.host : args[1];
  const ipc = typeof first === 'object' && first !== null && typeof first.path === 'string';
  if (!ipc && host !== undefined && !LOOPBACK.has(host)) {
    process.stderr.write(`loopback-only: refused a connection to ${host}\n`);
    process.nextTick(() => this.destroy(new Error(`loopback-only: ${host} is not the loopback interface`)));
    return this;
  }
  return connect.apply(this, args);
};
