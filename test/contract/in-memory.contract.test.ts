import type { WriteEvents } from '../../src/application';
import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { InMemoryAuthors } from '../../src/infrastructure/persistence/memory/in-memory-authors';
import { InMemoryKeyRepository } from '../../src/infrastructure/persistence/memory/in-memory-key-repository';
import { InMemoryWebhookRepository } from '../../src/infrastructure/persistence/memory/in-memory-webhook-repository';
import { articleRepositoryContract, type ContractSubject } from './article-repository';
import { type WebhookContractSubject, webhookRepositoryContract } from './webhook-repository';

/** Articles and keys of one store: they share its authors. */
function newStore(): Pick<ContractSubject, 'repository' | 'keys'> {
  const authors = new InMemoryAuthors();
  return { repository: new InMemoryArticleRepository(authors), keys: new InMemoryKeyRepository(authors) };
}

articleRepositoryContract('in-memory', async () => {
  const subject: ContractSubject = {
    ...newStore(),
    reset: async () => {
      Object.assign(subject, newStore());
    },
    close: async () => {},
  };
  return subject;
});

/** Articles and webhooks of one store: the articles' writes record their events in its outbox. */
function newWebhookStore(writeEvents: WriteEvents): Pick<WebhookContractSubject, 'articles' | 'webhooks'> {
  const webhooks = new InMemoryWebhookRepository();
  return { webhooks, articles: new InMemoryArticleRepository(new InMemoryAuthors(), webhooks.store, writeEvents) };
}

webhookRepositoryContract('in-memory', async (writeEvents) => {
  const subject: WebhookContractSubject = {
    ...newWebhookStore(writeEvents),
    reset: async () => {
      Object.assign(subject, newWebhookStore(writeEvents));
    },
    close: async () => {},
  };
  return subject;
});
