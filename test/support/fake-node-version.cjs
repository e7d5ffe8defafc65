/**
 * Preloaded (node --require) by the unsupported-line test: the process reports FAKE_NODE_VERSION
 * as its Node.js version, as a Node.js of that line would.
 */
Object.defineProperty(process, 'version', { value: process.env.FAKE_NODE_VERSION });
