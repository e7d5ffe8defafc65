import { ARTICLE_RULES, checkArticleFields, newArticleFields, normalizeTermReferences } from '../../../src/domain';
import { validationErrorOf } from '../../support/errors';

const emoji = (count: number) => '😀'.repeat(count);

describe('newArticleFields', () => {
  it('applies the defaults: title null, the fixed description, visible true', () => {
    expect(newArticleFields({ content: 'c' })).toEqual({
      title: null,
      description: '这篇文章还没有介绍...',
      content: 'c',
      featured: false,
    });
    expect(ARTICLE_RULES.defaultDescription).toBe('这篇文章还没有介绍...');
  });

  it('keeps the given values, featured and title null included', () => {
    expect(newArticleFields({ title: null, description: '', content: ' ', featured: true })).toEqual({
      title: null,
      description: '',
      content: ' ',
      featured: true,
    });
  });

  it('accepts a title of 200 code points, even when they are 400 UTF-16 units', () => {
    expect(newArticleFields({ title: emoji(200), content: 'c' }).title).toBe(emoji(200));
  });

  it('rejects a title of 201 code points', () => {
    expect(validationErrorOf(() => newArticleFields({ title: emoji(201), content: 'c' }))).toMatchObject({
      field: 'title',
      message: 'title: must be at most 200 characters',
    });
  });

  it('accepts a description of 1000 code points and rejects 1001', () => {
    expect(newArticleFields({ description: emoji(1000), content: 'c' }).description).toBe(emoji(1000));
    expect(validationErrorOf(() => newArticleFields({ description: emoji(1001), content: 'c' }))).toMatchObject({
      field: 'description',
      message: 'description: must be at most 1000 characters',
    });
  });

  it('rejects empty content but accepts whitespace-only content', () => {
    expect(validationErrorOf(() => newArticleFields({ content: '' }))).toMatchObject({
      field: 'content',
      message: 'content: must not be empty',
    });
    expect(newArticleFields({ content: ' ' }).content).toBe(' ');
  });

  it.each([
    ['title', { title: 'a\u0000', content: 'c' }],
    ['description', { description: 'a\u0000', content: 'c' }],
    ['content', { content: 'a\u0000' }],
  ])('rejects NUL in %s and names that field', (field, input) => {
    expect(validationErrorOf(() => newArticleFields(input))).toMatchObject({
      field,
      reason: 'must not contain the NUL character (U+0000)',
    });
  });

  it('rejects an unpaired surrogate in content', () => {
    expect(validationErrorOf(() => newArticleFields({ content: 'a\uD83D' }))).toMatchObject({
      field: 'content',
      reason: 'must not contain unpaired UTF-16 surrogates',
    });
  });
});

describe('checkArticleFields (update)', () => {
  it('leaves absent fields absent and accepts a null title', () => {
    expect(checkArticleFields({})).toEqual({});
    expect(checkArticleFields({ title: null })).toEqual({ title: null });
  });

  it('checks the fields that are present', () => {
    expect(validationErrorOf(() => checkArticleFields({ content: '' })).field).toBe('content');
    expect(validationErrorOf(() => checkArticleFields({ title: 'x'.repeat(201) })).field).toBe('title');
  });
});

describe('normalizeTermReferences', () => {
  it('trims names and defaults the description to null', () => {
    expect(normalizeTermReferences('tag', [{ name: '  TS \t' }, { name: 'JS', description: 'd' }])).toEqual([
      { name: 'TS', description: null },
      { name: 'JS', description: 'd' },
    ]);
  });

  it('rejects a whitespace-only name, naming the reference', () => {
    expect(validationErrorOf(() => normalizeTermReferences('tag', [{ name: 'ok' }, { name: '  ' }]))).toMatchObject({
      field: 'tag[1].name',
      reason: 'must not be empty or only whitespace',
    });
  });

  it('accepts a name of 64 code points (after trimming) and rejects 65', () => {
    expect(normalizeTermReferences('category', [{ name: ` ${emoji(64)} ` }])).toEqual([
      { name: emoji(64), description: null },
    ]);
    expect(validationErrorOf(() => normalizeTermReferences('category', [{ name: emoji(65) }]))).toMatchObject({
      field: 'category[0].name',
      message: 'category[0].name: must be at most 64 characters',
    });
  });

  it('rejects NUL in a name or a description', () => {
    expect(validationErrorOf(() => normalizeTermReferences('tag', [{ name: 'a\u0000' }])).field).toBe('tag[0].name');
    expect(
      validationErrorOf(() => normalizeTermReferences('tag', [{ name: 'a', description: 'x\u0000' }])),
    ).toMatchObject({ field: 'tag[0].description', reason: 'must not contain the NUL character (U+0000)' });
  });

  it('rejects a description over 1000 code points', () => {
    const error = validationErrorOf(() => normalizeTermReferences('tag', [{ name: 'a', description: emoji(1001) }]));
    expect(error.message).toBe('tag[0].description: must be at most 1000 characters');
  });

  it('links the same id once', () => {
    expect(normalizeTermReferences('tag', [{ id: 'x' }, { id: 'y' }, { id: 'x' }])).toEqual([{ id: 'x' }, { id: 'y' }]);
  });

  it('links the same trimmed name once, the first one winning', () => {
    const references = [{ name: 'TS', description: 'first' }, { name: ' TS ', description: 'second' }, { name: 'ts' }];
    expect(normalizeTermReferences('tag', references)).toEqual([
      { name: 'TS', description: 'first' },
      { name: 'ts', description: null },
    ]);
  });

  it('accepts 50 references and rejects 51', () => {
    const refs = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `t${i}` }));
    expect(normalizeTermReferences('tag', refs(50))).toHaveLength(50);
    expect(validationErrorOf(() => normalizeTermReferences('category', refs(51)))).toMatchObject({
      field: 'category',
      message: 'category: at most 50 references are allowed',
    });
  });
});

describe('normalizeTermReferences: id references', () => {
  it.each([
    ['empty', '', 'must not be empty'],
    ['longer than 64 characters', 'x'.repeat(65), 'must be at most 64 characters'],
    ['holding NUL', 'ab\u0000', 'must not contain the NUL character (U+0000)'],
    ['holding a lone surrogate', 'ab\udc00', 'must not contain unpaired UTF-16 surrogates'],
  ])('rejects an id that is %s, naming the reference', (_case, id, reason) => {
    expect(validationErrorOf(() => normalizeTermReferences('category', [{ name: 'fine' }, { id }]))).toMatchObject({
      field: 'category[1].id',
      reason,
    });
  });

  it('accepts an id of 64 characters', () => {
    expect(normalizeTermReferences('tag', [{ id: 'x'.repeat(64) }])).toEqual([{ id: 'x'.repeat(64) }]);
  });
});
