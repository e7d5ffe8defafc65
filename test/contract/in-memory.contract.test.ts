import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { InMemoryAuthors } from '../../src/infrastructure/persistence/memory/in-memory-authors';
import { InMemoryKeyRepository } from '../../src/infrastructure/persistence/memory/in-memory-key-repository';
import { articleRepositoryContract, type ContractSubject } from './article-repository';

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
