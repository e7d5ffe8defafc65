import type { Express } from 'express';
import request from 'supertest';
import type { ListVersion, VisibleArticlesFilter } from '../../src/application';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createApp } from '../../src/composition/create-app';
import type { Article } from '../../src/domain';
import { type AppConfig, type DatabaseConfig, loadConfig } from '../../src/infrastructure/config/config';
import { InMemoryArticleRepository } from '../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { ListTextCache } from '../../src/interfaces/http/list-text-cache';
import { appOnRepository } from '../support/app-on-repository';
import { createPostgresDatabase, createSqliteFile } from '../support/test-databases';

/** The in-memory store, counting the streams the whole lists open. */
class CountingRepository extends InMemoryArticleRepository {
  streams = 0;
  override async *streamVisible(filter: VisibleArticlesFilter): AsyncGenerator<Article[], ListVersion | undefined> {
    this.streams++;
    return yield* super.streamVisible(filter);
  }
}

const appOn = (repository: CountingRepository, listCache: ListTextCache | null) =>
  appOnRepository(repository, { listCache, bodyLimitBytes: 1024 * 1024 });

const create = (app: Express, body: object) => request(app).post('/article/create').send(body).expect(201);
const titlesOf = (body: { data: { title: string }[] }) => body.data.map((article) => article.title);

describe('the whole list, kept while the data is unchanged (in-memory store, its streams counted)', () => {
  let repository: CountingRepository;
  let app: Express;

  beforeEach(async () => {
    repository = new CountingRepository();
    app = appOn(repository, new ListTextCache(1024 * 1024));
    await create(app, { title: 'one', content: 'c', tag: [{ name: 'ts' }] });
    await create(app, { title: 'two', content: 'c' });
  });

  it('answers a third list with the bytes the second kept, without reading the storage', async () => {
    // The first read of a query finds its size; the second, knowing it fits, is kept.
    const first = await request(app).get('/article').expect(200);
    await request(app).get('/article').expect(200);
    const second = await request(app).get('/article').expect(200);

    expect(repository.streams).toBe(2);
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
    expect(titlesOf(second.body)).toEqual(['one', 'two']);
    // The same answer a service without the cache gives.
    const uncached = appOn(repository, null);
    expect((await request(uncached).get('/article')).text).toBe(first.text);
  });

  it('reads the storage again after any write: create, update, hide, delete', async () => {
    await request(app).get('/article').expect(200);
    await create(app, { title: 'three', content: 'c' });
    expect(titlesOf((await request(app).get('/article')).body)).toEqual(['one', 'two', 'three']);
    await request(app).post('/article/update').send({ id: 1, title: 'first' }).expect(200);
    expect(titlesOf((await request(app).get('/article')).body)).toEqual(['first', 'two', 'three']);
    await request(app).post('/article/update').send({ id: 2, visible: false }).expect(200);
    expect(titlesOf((await request(app).get('/article')).body)).toEqual(['first', 'three']);
    await request(app).post('/article/delete').send({ id: 3 }).expect(200);
    expect(titlesOf((await request(app).get('/article')).body)).toEqual(['first']);

    expect(repository.streams).toBe(5);
  });

  it('keeps each query apart', async () => {
    for (let n = 0; n < 2; n++) {
      await request(app).get('/article').expect(200);
      await request(app).get('/article?tag=ts').expect(200);
    }
    const all = await request(app).get('/article').expect(200);
    const tagged = await request(app).get('/article?tag=ts').expect(200);

    expect(repository.streams).toBe(4);
    expect(titlesOf(tagged.body)).toEqual(['one']);
    expect(titlesOf(all.body)).toEqual(['one', 'two']);
  });

  it('never keeps a page: a list with `limit` is read every time', async () => {
    await request(app).get('/article?limit=1').expect(200);
    await request(app).get('/article?limit=1').expect(200);
    expect(repository.streams).toBe(0);
  });

  it('reads every list when the answer is larger than the bound, or with no cache (LIST_CACHE_SIZE=0)', async () => {
    const small = appOn(repository, new ListTextCache(100));
    const none = appOn(repository, null);
    for (let n = 0; n < 3; n++) {
      await request(small).get('/article').expect(200);
      await request(none).get('/article').expect(200);
    }

    expect(repository.streams).toBe(6);
  });
});

/** Two service instances (two composition roots) on one database, as behind a load balancer. */
describe.each(['sqlite', 'postgres'] as const)('two instances on one %s database', (kind) => {
  let database: DatabaseConfig;
  let remove: () => Promise<void>;
  const containers: Awaited<ReturnType<typeof buildContainer>>[] = [];
  let reader: Express;
  let writer: Express;

  beforeAll(async () => {
    if (kind === 'sqlite') {
      const file = createSqliteFile();
      database = { kind: 'sqlite', path: file.path };
      remove = async () => file.remove();
    } else {
      const created = await createPostgresDatabase();
      database = { kind: 'postgres', url: created.url };
      remove = created.drop;
    }
    const config: AppConfig = { ...loadConfig({ LOG_LEVEL: 'silent' }), database };
    for (let n = 0; n < 2; n++) containers.push(await buildContainer(config));
    [reader, writer] = containers.map(createApp) as [Express, Express];
  });

  afterAll(async () => {
    for (const container of containers) await closeContainer(container);
    await remove();
  });

  it("one instance's list shows every write made through the other", async () => {
    const read = async () => titlesOf((await request(reader).get('/article').expect(200)).body);
    await create(writer, { title: 'one', content: 'c' });
    // Three reads: the third is answered from what the second kept.
    for (let n = 0; n < 3; n++) await expect(read()).resolves.toEqual(['one']);

    await create(writer, { title: 'two', content: 'c', tag: [{ name: 'ts' }] });
    await expect(read()).resolves.toEqual(['one', 'two']);
    await request(writer).post('/article/update').send({ id: 1, title: 'first' }).expect(200);
    await expect(read()).resolves.toEqual(['first', 'two']);
    await request(writer).post('/article/update').send({ id: 2, visible: false }).expect(200);
    await expect(read()).resolves.toEqual(['first']);
    await request(writer).post('/article/delete').send({ id: 1 }).expect(200);
    await expect(read()).resolves.toEqual([]);
  });
});
