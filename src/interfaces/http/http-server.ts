import http from 'node:http';
import type { Express } from 'express';

/**
 * The HTTP server for the app, its requests and responses built with the app's own prototypes
 * (`app.request`, `app.response`). Express gives every request and response those prototypes
 * with Object.setPrototypeOf as it takes them (application.js, `handle`). On an object built
 * with another prototype, V8 handles it slowly from then on and its garbage outlives the young
 * generation: a bare Express 5 app served 3.4 times fewer requests a second and promoted 3 MB per
 * young collection, where on these prototypes it promoted nothing (docs/adr/0051). Built with
 * them, Express's call finds the prototype already there and changes nothing.
 */
export function httpServerFor(app: Express): http.Server {
  return http.createServer(
    {
      IncomingMessage: builtWith<typeof http.IncomingMessage>(http.IncomingMessage, app.request),
      ServerResponse: builtWith<typeof http.ServerResponse>(http.ServerResponse, app.response),
    },
    app,
  );
}

/**
 * A constructor that runs `base`'s on the object Node's server creates with `new`, whose
 * prototype is `prototype`. `base.call(this)`, not Reflect.construct: Node.js's IncomingMessage
 * and ServerResponse are plain constructor functions (20 to 26), and a bare Express app built
 * through Reflect.construct served 0.6 of its requests a second.
 */
function builtWith<T extends abstract new (...args: never[]) => object>(base: T, prototype: object): T {
  // Node's server passes IncomingMessage the socket, ServerResponse the request and its options.
  function Built(this: object, first: unknown, second: unknown) {
    (base as unknown as (first: unknown, second: unknown) => void).call(this, first, second);
  }
  Built.prototype = prototype;
  return Built as unknown as T;
}
