import { RoutePaths } from '../../../src/interfaces/http/route-paths';

describe('RoutePaths', () => {
  const paths = new RoutePaths<string>();
  paths.add('/article/create', 'create');
  paths.add('/article/slug/:slug', 'by slug');
  paths.add('/article/:id', 'by id');
  paths.add('/webhook/:id/deliveries', 'deliveries');
  paths.add('/article', 'list');

  it('finds a literal path, and a pattern with its parameters decoded', () => {
    expect(paths.find('/article')).toEqual({ value: 'list', params: {} });
    expect(paths.find('/article/42')).toEqual({ value: 'by id', params: { id: '42' } });
    expect(paths.find('/article/slug/caf%C3%A9')).toEqual({ value: 'by slug', params: { slug: 'café' } });
    expect(paths.find('/webhook/w1/deliveries')).toEqual({ value: 'deliveries', params: { id: 'w1' } });
  });

  it('gives a path to the first route of the table that matches it, as an Express router does', () => {
    // `/article/create` comes before `/article/:id`: it is the create's path, never an id.
    expect(paths.find('/article/create')).toEqual({ value: 'create', params: {} });
    // `/article/slug/:slug` comes before `/article/:id`, which would not match three segments anyway.
    expect(paths.find('/article/slug/x')?.value).toBe('by slug');
  });

  it('matches exactly: case, trailing slash, empty and extra segments', () => {
    for (const path of [
      '/Article',
      '/article/',
      '/article/42/',
      '/article//',
      '/article/42/x',
      '/webhook//deliveries',
    ]) {
      expect(paths.find(path)).toBeNull();
    }
  });

  it('refuses a parameter that is not percent-encoded UTF-8 with a 400 naming the path', () => {
    expect(() => paths.find('/article/%E0%A4%A')).toThrow(
      expect.objectContaining({ status: 400, message: 'path: is not valid percent-encoded UTF-8' }),
    );
  });

  it('lets a pattern placed before a literal path take it', () => {
    const first = new RoutePaths<string>();
    first.add('/x/:name', 'pattern');
    first.add('/x/y', 'literal');
    expect(first.find('/x/y')).toEqual({ value: 'pattern', params: { name: 'y' } });
  });
});
