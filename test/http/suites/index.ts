import type { StorageKind } from '../../support/http-harness';
import { conditionalListsSuite } from './conditional-lists.suite';
import { conditionalReadsSuite } from './conditional-reads.suite';
import { conditionalWritesSuite } from './conditional-writes.suite';
import { createArticleSuite } from './create-article.suite';
import { deleteArticleSuite } from './delete-article.suite';
import { feedsSuite } from './feeds.suite';
import { idempotentCreatesSuite } from './idempotent-creates.suite';
import { keysAndRolesSuite } from './keys-and-roles.suite';
import { pagesAndFiltersSuite } from './pages-and-filters.suite';
import { publishingSuite } from './publishing.suite';
import { readRoutesSuite } from './read-routes.suite';
import { revisionsSuite } from './revisions.suite';
import { routingSuite } from './routing-and-auth.suite';
import { searchSuite } from './search.suite';
import { streamedListSuite } from './streamed-list.suite';
import { updateArticleSuite } from './update-article.suite';
import { webhooksSuite } from './webhooks.suite';

/** The whole HTTP contract of api.md, on one storage. */
export function describeHttpApi(kind: StorageKind): void {
  describe(`HTTP API on ${kind}`, () => {
    createArticleSuite(kind);
    idempotentCreatesSuite(kind);
    updateArticleSuite(kind);
    deleteArticleSuite(kind);
    conditionalWritesSuite(kind);
    conditionalReadsSuite(kind);
    conditionalListsSuite(kind);
    readRoutesSuite(kind);
    pagesAndFiltersSuite(kind);
    searchSuite(kind);
    publishingSuite(kind);
    revisionsSuite(kind);
    feedsSuite(kind);
    streamedListSuite(kind);
    routingSuite(kind);
    keysAndRolesSuite(kind);
    webhooksSuite(kind);
  });
}
