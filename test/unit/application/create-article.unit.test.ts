import { CreateArticle, type CreateArticleInput, ListTags, ListVisibleArticles } from '../../../src/application';
import { OPEN_ACTOR, UnknownReferenceError, ValidationError } from '../../../src/domain';
import { InMemoryArticleRepository } from '../../../src/infrastructure/persistence/memory/in-memory-article-repository';
import { aCreateInput } from '../../support/builders';
import { TestClock } from '../../support/test-clock';

describe('CreateArticle', () => {
  let repository: InMemoryArticleRepository;
  let clock: TestClock;
  let createArticle: CreateArticle;
  /** The articles these tests attempt are all visible. */
  const everything = () => new ListVisibleArticles(repository, clock).execute();
  const tagNames = async () => (await new ListTags(repository).execute()).map((tag) => tag.name);

  beforeEach(() => {
    repository = new InMemoryArticleRepository();
    clock = new TestClock('2026-05-06T07:08:09.123Z');
    createArticle = new CreateArticle(repository, clock);
  });

  it('applies the defaults and stamps createdAt and updatedAt with the clock time', async () => {
    const created = await createArticle.execute({ content: 'c' }, OPEN_ACTOR);

    expect(created).toEqual({
      id: 1,
      title: null,
      description: '这篇文章还没有介绍...',
      content: 'c',
      publishedAt: new Date('2026-05-06T07:08:09.123Z'),
      featured: false,
      slug: 'article',
      tags: [],
      categories: [],
      createdAt: new Date('2026-05-06T07:08:09.123Z'),
      updatedAt: new Date('2026-05-06T07:08:09.123Z'),
      version: 1,
      author: null,
    });
    await expect(repository.findById(created.id)).resolves.toEqual(created);
  });

  it('stores the given fields and gives increasing ids', async () => {
    const first = await createArticle.execute(aCreateInput(), OPEN_ACTOR);
    clock.advance(1000);
    const second = await createArticle.execute(
      aCreateInput({ title: 'T', description: 'D', visible: false }),
      OPEN_ACTOR,
    );

    expect(second).toMatchObject({
      id: first.id + 1,
      title: 'T',
      description: 'D',
      content: 'World',
      publishedAt: null,
    });
    expect(second.createdAt).toEqual(new Date('2026-05-06T07:08:10.123Z'));
  });

  it('links tags and categories by trimmed name, once each, ordered by name', async () => {
    const created = await createArticle.execute(
      aCreateInput({
        tag: [{ name: ' b ' }, { name: 'B', description: 'upper' }, { name: 'b' }],
        category: [{ name: 'x' }],
      }),
      OPEN_ACTOR,
    );

    expect(created.tags).toEqual([
      { id: expect.any(String), name: 'B', description: 'upper' },
      { id: expect.any(String), name: 'b', description: null },
    ]);
    expect(created.categories.map((category) => category.name)).toEqual(['x']);
  });

  it('links an existing tag by id', async () => {
    const [tag] = (await createArticle.execute(aCreateInput({ tag: [{ name: 'TS' }] }), OPEN_ACTOR)).tags;

    const created = await createArticle.execute(aCreateInput({ tag: [{ id: tag?.id ?? '' }] }), OPEN_ACTOR);

    expect(created.tags).toEqual([tag]);
  });

  it('reports invalid input as a rejected promise, not a synchronous throw', async () => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = createArticle.execute({ content: '' }, OPEN_ACTOR);
    }).not.toThrow();
    await expect(promise).rejects.toThrow(ValidationError);
  });

  it('rejects invalid input with a ValidationError before writing anything', async () => {
    // Wrapped in an async function so that this test checks what is written, whichever way it fails.
    const attempt = async (input: CreateArticleInput) => createArticle.execute(input, OPEN_ACTOR);

    await expect(attempt({ content: '', tag: [{ name: 'new-tag' }] })).rejects.toThrow(ValidationError);
    await expect(attempt({ content: 'c', title: 'x'.repeat(201) })).rejects.toThrow(
      'title: must be at most 200 characters',
    );
    await expect(attempt({ content: 'c', category: [{ name: ' ' }] })).rejects.toThrow(
      'category[0].name: must not be empty or only whitespace',
    );
    await expect(
      attempt({ content: 'c', tag: Array.from({ length: 51 }, (_, i) => ({ name: `t${i}` })) }),
    ).rejects.toThrow('tag: at most 50 references are allowed');

    await expect(everything()).resolves.toEqual([]);
    await expect(tagNames()).resolves.toEqual([]);
  });

  it('rejects an unknown tag id and writes neither the article nor the named tags', async () => {
    const attempt = createArticle.execute(aCreateInput({ tag: [{ name: 'fresh' }, { id: 'no-such-id' }] }), OPEN_ACTOR);

    await expect(attempt).rejects.toThrow(UnknownReferenceError);
    await expect(attempt).rejects.toThrow('tag: no tag with id "no-such-id"');
    await expect(everything()).resolves.toEqual([]);
    await expect(tagNames()).resolves.toEqual([]);
  });
});
