export type * from './ports/article-repository';
export type * from './ports/clock';
export * from './use-cases/create-article';
export * from './use-cases/get-article';
export * from './use-cases/list-terms';
export * from './use-cases/list-visible-articles';
export * from './use-cases/seed-articles';
export * from './use-cases/update-article';
