import { queryParametersOf } from '../../../src/interfaces/http/query-parameters';
import { HttpRequestError } from '../../../src/interfaces/http/request-errors';

const rejection = (message: string) => new HttpRequestError(400, message);

describe('queryParametersOf', () => {
  it('reads names and values as forms encode them, a repeated name as a list', () => {
    expect({ ...queryParametersOf('/article?q=caf%C3%A9+au+lait&tag=C%2B%2B&x&=e&&tag=b') }).toEqual({
      q: 'café au lait',
      tag: ['C++', 'b'],
      x: '',
      '': 'e',
    });
    expect({ ...queryParametersOf('/article') }).toEqual({});
    expect({ ...queryParametersOf('/article?') }).toEqual({});
  });

  it('keeps prototype names as plain names', () => {
    const parameters = queryParametersOf('/article?__proto__=1&constructor=2');
    expect(Object.getPrototypeOf(parameters)).toBeNull();
    expect({ ...parameters }).toEqual({ ['__proto__']: '1', constructor: '2' });
  });

  it.each([
    ['q=%ZZ', 'q'],
    ['q=%C3%28', 'q'],
    ['q=abc%', 'q'],
    ['limit=5&tag=%E0%A4%A', 'tag'],
    ['after=%C0%AF', 'after'],
    ['q=ok&page=%FF', 'page'],
  ])('rejects %s naming %s', (query, name) => {
    expect(() => queryParametersOf(`/article?${query}`)).toThrow(
      rejection(`${name}: is not valid percent-encoded UTF-8`),
    );
  });

  it('names the query instead of a parameter name that is malformed or unfit to quote', () => {
    expect(() => queryParametersOf('/article?%ZZ=1')).toThrow(
      rejection('query: a parameter name is not valid percent-encoded UTF-8'),
    );
    for (const name of ['a%20b', 'a%3Ab', 'x'.repeat(33), '%0A']) {
      expect(() => queryParametersOf(`/article?${name}=%ZZ`)).toThrow(
        rejection('query: a parameter value is not valid percent-encoded UTF-8'),
      );
    }
  });
});
