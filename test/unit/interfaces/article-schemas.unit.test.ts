import { ValidationError } from '../../../src/domain';
import {
  createArticleBody,
  parseInput,
  parsePathId,
  updateArticleBody,
} from '../../../src/interfaces/http/validation/article-schemas';
import { validationErrorOf } from '../../support/errors';

const create = (body: unknown) => parseInput(createArticleBody, body);
const update = (body: unknown) => parseInput(updateArticleBody, body);
/** The message of the ValidationError a create body is rejected with. */
const createError = (body: unknown) => validationErrorOf(() => create(body)).message;
const updateError = (body: unknown) => validationErrorOf(() => update(body)).message;
const names = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `t${i}` }));

describe('createArticleBody', () => {
  it('accepts a full body and turns references into domain input', () => {
    expect(
      create({
        title: null,
        description: 'd',
        content: 'c',
        visible: false,
        tag: [{ id: 'abc' }, { name: 'TS', description: null }],
        category: [{ name: 'News' }],
      }),
    ).toEqual({
      title: null,
      description: 'd',
      content: 'c',
      visible: false,
      tag: [{ id: 'abc' }, { name: 'TS', description: null }],
      category: [{ name: 'News', description: undefined }],
    });
  });

  it('accepts content alone, leaving the defaults to the domain', () => {
    expect(create({ content: '' })).toEqual({ content: '' });
  });

  it('rejects an unknown field, naming it', () => {
    expect(createError({ content: 'x', foo: 1 })).toBe('foo: is not a known field');
  });

  it.each(['id', 'createdAt', 'updatedAt'])('rejects the read-only %s', (field) => {
    expect(createError({ content: 'x', [field]: 1 })).toBe(`${field}: is read-only`);
  });

  it('rejects an own "__proto__" key as JSON.parse makes it', () => {
    const body = JSON.parse('{"content":"x","__proto__":{"a":1}}');
    expect(Object.hasOwn(body, '__proto__')).toBe(true);

    expect(createError(body)).toBe('__proto__: is not a known field');
  });

  it('rejects a "constructor" key', () => {
    expect(createError(JSON.parse('{"content":"x","constructor":{"a":1}}'))).toBe('constructor: is not a known field');
  });

  it.each([
    [{ content: 'x', title: 5 }, 'title: must be a string'],
    [{ content: 5 }, 'content: must be a string'],
    [{ content: 'x', visible: 'true' }, 'visible: must be a boolean (true or false)'],
    [{ content: 'x', description: null }, 'description: must be a string'],
    [{ content: 'x', tag: 'TS' }, 'tag: must be an array'],
    [{ content: 'x', tag: ['TS'] }, 'tag[0]: must be a JSON object'],
    [{ content: 'x', category: [{ name: 5 }] }, 'category[0].name: must be a string'],
  ])('rejects a wrong type: %j', (body, message) => {
    expect(createError(body)).toBe(message);
  });

  it('requires content', () => {
    expect(createError({ title: 't' })).toBe('content: is required');
  });

  it.each([
    ['both id and name', { id: 'a', name: 'b' }, 'tag[0]: must have exactly one of "id" or "name"'],
    ['neither id nor name', {}, 'tag[0]: must have exactly one of "id" or "name"'],
    ['a description with an id', { id: 'a', description: 'd' }, 'tag[0]: "description" goes only with "name"'],
    ['another key', { name: 'a', colour: 'red' }, 'tag[0].colour: is not a known field'],
  ])('rejects a reference with %s', (_, reference, message) => {
    expect(createError({ content: 'x', tag: [reference] })).toBe(message);
  });

  it('accepts 50 references and rejects 51', () => {
    expect(create({ content: 'x', tag: names(50) }).tag).toHaveLength(50);
    expect(createError({ content: 'x', category: names(51) })).toBe('category: must have at most 50 items');
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'content'],
  ])('rejects %s as the body', (_, body) => {
    expect(createError(body)).toBe('body: must be a JSON object');
  });

  it('throws a ValidationError whose field names the problem', () => {
    expect(validationErrorOf(() => create({ content: 'x', title: 5 }))).toBeInstanceOf(ValidationError);
    expect(validationErrorOf(() => create({ content: 'x', title: 5 })).field).toBe('title');
  });
});

describe('updateArticleBody', () => {
  it('accepts an id alone', () => {
    expect(update({ id: 1 })).toEqual({ id: 1 });
  });

  it('accepts the largest signed 32-bit id', () => {
    expect(update({ id: 2_147_483_647, content: 'c' })).toEqual({ id: 2_147_483_647, content: 'c' });
  });

  it('requires the id', () => {
    expect(updateError({ title: 't' })).toBe('id: is required');
  });

  it.each([
    ['a string', '1', 'id: must be a number'],
    ['zero', 0, 'id: must be at least 1'],
    ['negative', -1, 'id: must be at least 1'],
    ['a fraction', 1.5, 'id: must be an integer'],
    ['beyond 32 bits', 2_147_483_648, 'id: must be at most 2147483647'],
    ['null', null, 'id: must be a number'],
  ])('rejects an id that is %s', (_, id, message) => {
    expect(updateError({ id })).toBe(message);
  });

  it.each(['createdAt', 'updatedAt'])('rejects the read-only %s', (field) => {
    expect(updateError({ id: 1, [field]: '2026-01-01T00:00:00.000Z' })).toBe(`${field}: is read-only`);
  });

  it('rejects unknown fields, "__proto__" included', () => {
    expect(updateError({ id: 1, foo: 1 })).toBe('foo: is not a known field');
    expect(updateError(JSON.parse('{"id":1,"__proto__":{}}'))).toBe('__proto__: is not a known field');
  });

  it('checks the types of the other fields', () => {
    expect(updateError({ id: 1, title: 5 })).toBe('title: must be a string');
    expect(updateError({ id: 1, description: null })).toBe('description: must be a string');
    expect(updateError({ id: 1, tag: [{ id: 'a', name: 'b' }] })).toBe(
      'tag[0]: must have exactly one of "id" or "name"',
    );
  });

  it('rejects a body that is not an object', () => {
    expect(updateError([{ id: 1 }])).toBe('body: must be a JSON object');
  });
});

describe('parsePathId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
  ])('reads %p as %p', (raw, id) => {
    expect(parsePathId(raw)).toBe(id);
  });

  it.each(['01', '0', '-1', '+1', '1.0', '1e3', ' 1', '0x1', '', '2147483648', '99999999999999999999', '１'])(
    'rejects %p',
    (raw) => {
      expect(parsePathId(raw)).toBeNull();
    },
  );
});
