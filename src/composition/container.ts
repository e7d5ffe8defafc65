import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
import {
  type ArticleRepository,
  type Clock,
  CreateArticle,
  GetArticle,
  ListCategories,
  ListTags,
  ListVisibleArticles,
  SeedArticles,
  UpdateArticle,
} from '../application';
import type { AppConfig } from '../infrastructure/config/config';
import { createLogger, type Logger } from '../infrastructure/logging/logger';
import { ArticleController } from '../interfaces/http/controllers/article-controller';
import { SeedController } from '../interfaces/http/controllers/seed-controller';
import { TermController } from '../interfaces/http/controllers/term-controller';
import { UserController } from '../interfaces/user-demo/user-controller';
import { storageModule } from './storage-modules';
import { type StorageLifecycle, TOKENS } from './tokens';

export interface ContainerOverrides {
  logger?: Logger;
  clock?: Clock;
}

/** The composition root: the one place that knows every layer. main.ts and the tests call it. */
export async function buildContainer(config: AppConfig, overrides: ContainerOverrides = {}): Promise<Container> {
  const container = new Container();
  container.load(coreModule(config, overrides), await storageModule(config.database), useCaseModule, controllerModule);
  return container;
}

export async function closeContainer(container: Container): Promise<void> {
  await container.get<StorageLifecycle>(TOKENS.StorageLifecycle).close();
}

function coreModule(config: AppConfig, overrides: ContainerOverrides): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AppConfig>(TOKENS.Config).toConstantValue(config);
    bind<Logger>(TOKENS.Logger).toConstantValue(overrides.logger ?? createLogger(config.logLevel));
    bind<Clock>(TOKENS.Clock).toConstantValue(overrides.clock ?? { now: () => new Date() });
  });
}

const useCaseModule = new ContainerModule(({ bind }) => {
  const repository = [TOKENS.ArticleRepository] as const;
  const repositoryAndClock = [TOKENS.ArticleRepository, TOKENS.Clock] as const;
  bind(CreateArticle)
    .toResolvedValue(
      (articles: ArticleRepository, clock: Clock) => new CreateArticle(articles, clock),
      [...repositoryAndClock],
    )
    .inSingletonScope();
  bind(UpdateArticle)
    .toResolvedValue(
      (articles: ArticleRepository, clock: Clock) => new UpdateArticle(articles, clock),
      [...repositoryAndClock],
    )
    .inSingletonScope();
  bind(ListVisibleArticles)
    .toResolvedValue((articles: ArticleRepository) => new ListVisibleArticles(articles), [...repository])
    .inSingletonScope();
  bind(GetArticle)
    .toResolvedValue((articles: ArticleRepository) => new GetArticle(articles), [...repository])
    .inSingletonScope();
  bind(ListTags)
    .toResolvedValue((articles: ArticleRepository) => new ListTags(articles), [...repository])
    .inSingletonScope();
  bind(ListCategories)
    .toResolvedValue((articles: ArticleRepository) => new ListCategories(articles), [...repository])
    .inSingletonScope();
  bind(SeedArticles)
    .toResolvedValue(
      (create: CreateArticle, list: ListVisibleArticles) => new SeedArticles(create, list),
      [CreateArticle, ListVisibleArticles],
    )
    .inSingletonScope();
});

const controllerModule = new ContainerModule(({ bind }) => {
  bind(ArticleController)
    .toResolvedValue(
      (create: CreateArticle, update: UpdateArticle, list: ListVisibleArticles, get: GetArticle) =>
        new ArticleController(create, update, list, get),
      [CreateArticle, UpdateArticle, ListVisibleArticles, GetArticle],
    )
    .inSingletonScope();
  bind(SeedController)
    .toResolvedValue((seed: SeedArticles) => new SeedController(seed), [SeedArticles])
    .inSingletonScope();
  bind(TermController)
    .toResolvedValue(
      (tags: ListTags, categories: ListCategories) => new TermController(tags, categories),
      [ListTags, ListCategories],
    )
    .inSingletonScope();
  bind(UserController).toConstantValue(new UserController());
});
