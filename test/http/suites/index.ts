import type { StorageKind } from '../../support/http-harness';
import { createArticleSuite } from './create-article.suite';
import { readRoutesSuite } from './read-routes.suite';
import { routingSuite } from './routing-and-auth.suite';
import { updateArticleSuite } from './update-article.suite';

/** The whole HTTP contract of api.md, on one storage. */
export function describeHttpApi(kind: StorageKind): void {
  describe(`HTTP API on ${kind}`, () => {
    createArticleSuite(kind);
    updateArticleSuite(kind);
    readRoutesSuite(kind);
    routingSuite(kind);
  });
}
