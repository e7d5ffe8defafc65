import { types } from 'node:util';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { CreateArticle, DeleteArticle, GetArticle, ListVisibleArticles } from '../../../src/application';
import { buildContainer, closeContainer } from '../../../src/composition/container';
import { OPEN_ACTOR } from '../../../src/domain';
import { loadConfig } from '../../../src/infrastructure/config/config';
import { capturedLogger } from '../../support/captured-logger';

/** The composition root's use-case spans, on the memory store, recorded by the real SDK in memory. */
describe('use-case spans', () => {
  const config = { ...loadConfig({}), database: { kind: 'memory' as const } };

  it('are not there at all without a tracer: the use cases are the plain instances', async () => {
    const container = await buildContainer(config, { logger: capturedLogger().logger });
    const useCases = [
      container.get(CreateArticle),
      container.get(DeleteArticle),
      container.get(GetArticle),
      container.get(ListVisibleArticles),
    ];
    expect(useCases.map((useCase) => types.isProxy(useCase))).toEqual([false, false, false, false]);
    await closeContainer(container);
  });

  it('name each call, record an expected outcome without marking an error, and trace a page and a whole list', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const container = await buildContainer(config, {
      logger: capturedLogger().logger,
      tracer: provider.getTracer('test'),
    });

    const created = await container
      .get(CreateArticle)
      .execute({ title: 'Spanned', content: 'x', visible: true }, OPEN_ACTOR);
    await expect(container.get(DeleteArticle).execute({ id: created.id + 1 }, OPEN_ACTOR)).rejects.toThrow(
      'does not exist',
    );
    expect(await container.get(ListVisibleArticles).page({ limit: 5 })).toHaveLength(1);
    expect(await container.get(ListVisibleArticles).execute()).toHaveLength(1);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'CreateArticle.execute',
      'DeleteArticle.execute',
      'ListVisibleArticles.page',
      'ListVisibleArticles.execute',
    ]);
    const deleted = spans[1];
    expect(deleted?.attributes).toEqual({ 'error.type': 'ArticleNotFoundError' });
    expect(deleted?.status.code).toBe(SpanStatusCode.UNSET);
    await closeContainer(container);
    await provider.shutdown();
  });
});
