export * from './article';
export * from './errors';
export * from './search';
export * from './term';
export * from './text';
