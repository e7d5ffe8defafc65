import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { articleRepositoryContract } from './article-repository';

articleRepositoryContract('in-memory', async () => {
  const subject = {
    repository: new InMemoryArticleRepository(),
    reset: async () => {
      subject.repository = new InMemoryArticleRepository();
    },
    close: async () => {},
  };
  return subject;
});
