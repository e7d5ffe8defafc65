export * from './article';
export * from './errors';
export * from './term';
export * from './text';
