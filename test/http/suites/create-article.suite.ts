import type { StorageKind } from '../../support/http-harness';
import { ARTICLE_KEYS, failureBody, useHarness } from './harness-per-suite';

export function createArticleSuite(kind: StorageKind): void {
  describe('POST /article/create', () => {
    const harness = useHarness(kind);
    const create = (body: unknown) =>
      harness()
        .http()
        .post('/article/create')
        .send(body as object);

    it('answers 201 with exactly the fields of the contract, defaults applied, published now', async () => {
      const response = await create({ content: 'Hello' });

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ statusCode: 10000, message: 'Success' });
      const article = response.body.data;
      expect(Object.keys(article)).toEqual(ARTICLE_KEYS);
      expect(article).toEqual({
        id: expect.any(Number),
        title: null,
        description: '这篇文章还没有介绍...',
        content: 'Hello',
        visible: true,
        tag: [],
        category: [],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: article.createdAt,
        slug: 'article',
        publishedAt: article.createdAt,
        status: 'published',
        featured: false,
        readingTime: 1,
        author: null,
      });
    });

    it('creates and links tags and categories by name, then by id', async () => {
      const first = await create({
        title: 'T',
        content: 'c',
        visible: false,
        tag: [{ name: '  TS ', description: 'TypeScript' }, { name: 'Node' }],
        category: [{ name: 'dev' }],
      });
      expect(first.status).toBe(201);
      expect(first.body.data.tag).toEqual([
        { id: expect.any(String), name: 'Node', description: null },
        { id: expect.any(String), name: 'TS', description: 'TypeScript' },
      ]);
      const tsId = first.body.data.tag[1].id;

      const second = await create({ content: 'c', tag: [{ id: tsId }, { name: 'TS' }] });
      expect(second.status).toBe(201);
      expect(second.body.data.tag).toEqual([{ id: tsId, name: 'TS', description: 'TypeScript' }]);

      const read = await harness().http().get(`/article/${first.body.data.id}`);
      expect(read.body.data).toEqual(first.body.data);
    });

    it.each([
      ['an unknown field', { content: 'c', extra: 1 }, 'extra: is not a known field'],
      ['the read-only id', { content: 'c', id: 5 }, 'id: is read-only'],
      ['the read-only createdAt', { content: 'c', createdAt: 'x' }, 'createdAt: is read-only'],
      ['a missing content', { title: 't' }, 'content: is required'],
      ['an empty content', { content: '' }, 'content: must not be empty'],
      ['a number as title', { content: 'c', title: 5 }, 'title: must be a string'],
      ['a null description', { content: 'c', description: null }, 'description: must be a string'],
      ['a string as visible', { content: 'c', visible: 'yes' }, 'visible: must be a boolean (true or false)'],
      ['a title of 201 characters', { content: 'c', title: '😀'.repeat(201) }, 'title: must be at most 200 characters'],
      ['NUL in the content', { content: 'a\u0000b' }, /^content: .*NUL/],
      ['a lone surrogate in the title', { content: 'c', title: 'a\ud800' }, /^title: .*surrogate/],
      ['a reference with id and name', { content: 'c', tag: [{ id: 'x', name: 'y' }] }, /^tag\[0\]: /],
      [
        'a reference with another key',
        { content: 'c', category: [{ name: 'y', colour: 1 }] },
        /^category\[0\]\.colour/,
      ],
      ['a blank tag name', { content: 'c', tag: [{ name: '   ' }] }, /^tag\[0\]\.name: /],
      ['NUL in a reference id', { content: 'c', tag: [{ id: 'a\u0000' }] }, /^tag\[0\]\.id: .*NUL/],
      ['an empty reference id', { content: 'c', category: [{ id: '' }] }, 'category[0].id: must not be empty'],
      ['a reference id of 65 characters', { content: 'c', tag: [{ id: 'x'.repeat(65) }] }, /^tag\[0\]\.id: /],
      ['51 references', { content: 'c', tag: Array.from({ length: 51 }, (_, i) => ({ name: `t${i}` })) }, /^tag: /],
    ])('rejects %s with 400 naming the field', async (_case, body, message) => {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(message));
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"text"'],
      ['null', 'null'],
      ['a number', '42'],
      ['nothing', ''],
    ])('rejects %s as body with 400', async (_case, raw) => {
      const response = await harness().http().post('/article/create').set('Content-Type', 'application/json').send(raw);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody(/^body: /));
    });

    it('rejects the keys __proto__ and constructor as unknown fields', async () => {
      for (const key of ['__proto__', 'constructor']) {
        const response = await harness()
          .http()
          .post('/article/create')
          .set('Content-Type', 'application/json')
          .send(`{"content":"c","${key}":{"polluted":true}}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(failureBody(`${key}: is not a known field`));
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers malformed JSON with 400', async () => {
      const response = await harness()
        .http()
        .post('/article/create')
        .set('Content-Type', 'application/json')
        .send('{"content": "c",');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('body: is not valid JSON'));
    });

    it.each([
      ['no Content-Type', undefined],
      ['text/plain', 'text/plain'],
      ['a JSON-like vendor type', 'application/vnd.api+json'],
    ])('answers %s with 415', async (_case, type) => {
      const call = harness().http().post('/article/create');
      if (type) call.set('Content-Type', type);
      const response = await call.send(Buffer.from('{"content":"c"}'));
      expect(response.status).toBe(415);
      expect(response.body).toEqual(failureBody(/Content-Type: application\/json/));
    });

    it('accepts application/json with a charset parameter', async () => {
      const response = await harness()
        .http()
        .post('/article/create')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send('{"content":"c"}');
      expect(response.status).toBe(201);
    });

    it.each(['/article/create', '/article/update', '/article/delete'])(
      'POST %s answers a JSON value that is not an object with 400 "body: must be a JSON object"',
      async (route) => {
        for (const text of ['"x"', '1', '-0.5', 'null', 'true', 'false', ' "x" ', '[]', '[{"content":"c"}]']) {
          const response = await harness().http().post(route).set('Content-Type', 'application/json').send(text);
          expect({ text, status: response.status, body: response.body }).toEqual({
            text,
            status: 400,
            body: failureBody('body: must be a JSON object'),
          });
        }
      },
    );

    // The bytes as they are: supertest would send a Buffer with a JSON type as JSON.stringify(buffer).
    const sendBytes = (type: string, bytes: Buffer) =>
      harness()
        .http()
        .post('/article/create')
        .set('Content-Type', type)
        .serialize((body) => body)
        .send(bytes);

    it('answers 415 to any charset but UTF-8, declared or marked by a byte order mark; a UTF-8 one is accepted', async () => {
      const json = '{"content":"c"}';
      const utf16be = Buffer.from(`\ufeff${json}`, 'utf16le').swap16();
      const cases: Array<[string, Buffer]> = [
        ['application/json; charset=utf-16', Buffer.from(json)],
        ['application/json; charset=utf-16', Buffer.from(`\ufeff${json}`, 'utf16le')],
        ['application/json; charset=UTF-16LE', Buffer.from(json, 'utf16le')],
        ['application/json; charset=utf-32', Buffer.from(json)],
        ['application/json; charset=latin1', Buffer.from(json)],
        ['application/json; charset=iso-8859-1', Buffer.from(json)],
        ['application/json; charset=us-ascii', Buffer.from(json)],
        ['application/json', Buffer.from(`\ufeff${json}`, 'utf16le')],
        ['application/json', utf16be],
        ['application/json; charset=utf-8', utf16be],
      ];
      for (const [type, body] of cases) {
        const response = await sendBytes(type, body);
        expect({ type, body: body.subarray(0, 4), status: response.status, answer: response.body }).toEqual({
          type,
          body: body.subarray(0, 4),
          status: 415,
          answer: failureBody('body: unsupported charset or content encoding (send UTF-8 JSON)'),
        });
      }
      expect((await harness().http().get('/article')).body.data).toEqual([]);

      // RFC 8259 lets a parser ignore a UTF-8 byte order mark: the text is still UTF-8 (ADR 0027).
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      for (const type of ['application/json', 'application/json; charset=UTF-8']) {
        const response = await sendBytes(type, Buffer.concat([bom, Buffer.from('{"content":"caf\u00e9"}')]));
        expect(response.status).toBe(201);
        expect(response.body.data.content).toBe('caf\u00e9');
      }
    });

    it('answers a body over 1mb with 413 and stores nothing; one just under is accepted', async () => {
      const envelope = '{"content":""}'.length;
      const over = await create({ content: 'x'.repeat(1_048_576 - envelope + 1) });
      expect(over.status).toBe(413);
      expect(over.body).toEqual(failureBody(/limit of 1048576 bytes/));

      const under = await create({ content: 'x'.repeat(1_048_576 - envelope) });
      expect(under.status).toBe(201);
      const list = await harness().http().get('/article');
      expect(list.body.data).toHaveLength(1);
    });

    it('answers an unknown tag id with 400 naming it, and writes nothing', async () => {
      const response = await create({ content: 'c', tag: [{ name: 'new' }], category: [{ id: 'missing-id' }] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failureBody('category: no category with id "missing-id"'));
      expect((await harness().http().get('/article')).body.data).toEqual([]);
      expect((await harness().http().get('/tag')).body.data).toEqual([]);
    });

    it('stores text byte for byte: emoji, RTL, SQL and HTML', async () => {
      const title = "<script>alert('x')</script> ' OR 1=1; -- مرحبا 👩‍👩‍👧";
      const created = await create({ content: title, title });
      const read = await harness().http().get(`/article/${created.body.data.id}`);
      expect(read.body.data.title).toBe(title);
      expect(read.body.data.content).toBe(title);
    });
  });
}
