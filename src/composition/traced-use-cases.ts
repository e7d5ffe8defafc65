import { type Span, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { DomainError, StorageUnavailableError } from '../domain';

/**
 * The use case with a span around each call of the methods named, e.g. `CreateArticle.execute`:
 * the child of the request's span and the parent of its statements' spans. Added here, in the
 * composition root, so that the application layer stays plain TypeScript that knows nothing of
 * tracing; when tracing is off the use cases are not wrapped at all.
 *
 * Methods run with the proxy as `this`, so that a use case calling its own traced method
 * (ListVisibleArticles reading each batch with `page`) makes a span for that call too.
 */
export function withUseCaseSpans<T extends object>(
  useCase: T,
  methods: readonly (keyof T & string)[],
  tracer: Tracer,
): T {
  const spanOwner = useCase.constructor.name;
  const traced = new Map<PropertyKey, unknown>();
  const proxy: T = new Proxy(useCase, {
    get(target, property, receiver) {
      const wrapped = traced.get(property);
      if (wrapped) return wrapped;
      return Reflect.get(target, property, receiver);
    },
  });
  for (const method of methods) {
    const original = useCase[method];
    if (typeof original !== 'function') throw new Error(`${spanOwner}.${method} is not a method`);
    const name = `${spanOwner}.${method}`;
    traced.set(method, (...args: unknown[]) =>
      tracer.startActiveSpan(name, async (span) => {
        try {
          return await Reflect.apply(original, proxy, args);
        } catch (error) {
          recordFailure(span, error);
          throw error;
        } finally {
          span.end();
        }
      }),
    );
  }
  return proxy;
}

/**
 * Every failure names its type; only those the service did not mean (an unavailable storage, a
 * bug) mark the span as an error. Answers such as "no such article" or "changed since read" are
 * the use case working, as a 4xx is not an error on the HTTP span.
 */
function recordFailure(span: Span, error: unknown): void {
  span.setAttribute(ATTR_ERROR_TYPE, error instanceof Error ? error.name : 'unknown');
  if (!(error instanceof DomainError) || error instanceof StorageUnavailableError) {
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}
