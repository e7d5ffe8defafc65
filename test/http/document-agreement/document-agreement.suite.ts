import fc from 'fast-check';
import type { StorageKind } from '../../support/http-harness';
import { type ListeningHarness, openListeningHarness } from '../../support/listening-harness';
import {
  type GeneratedRequest,
  type KnownValues,
  mutatedRequests,
  type OpenApiDocument,
  validRequests,
} from '../../support/openapi/generated-requests';
import { StandardRequestValidator } from '../../support/openapi/standard-request-validator';
import {
  answerAgrees,
  cursorOfLink,
  describeExpected,
  expectedAnswer,
  wordRulesOf,
} from '../../support/openapi/word-rules';
import { OpenApiResponseCheck } from '../../support/openapi-response-check';
import { explorationSeed } from '../../support/property-seed';
import { jsonOf } from '../../support/raw-http';

/**
 * The differential test of issue 26: requests generated from the served OpenAPI document, valid
 * and mutated, sent to the service; a standard validator judges each from the document alone,
 * and the service must agree, both ways. Where the document states a rule only in words (the few
 * of word-rules.ts), a request it takes that breaks one must be refused, naming the parameter.
 * Every answer must also conform to the document.
 */
export function documentAgreementSuite(kind: StorageKind, numRuns: number): void {
  const seed = explorationSeed(26);
  describe(`the document and the service agree on ${kind} (seed ${seed})`, () => {
    let api: ListeningHarness;
    let document: OpenApiDocument;
    let validator: StandardRequestValidator;
    let responses: OpenApiResponseCheck;
    const known: KnownValues = { articleId: 0, tagId: '', cursors: [] };
    /** A new known article, with a tag: at the start, and whenever a request deleted the last one. */
    const createKnownArticle = async () => {
      const created = jsonOf(
        await api.http.postJson('/article/create', { content: 'known', tag: [{ name: 'known-tag' }] }),
      ) as { data: { id: number; slug: string; tag: Array<{ id: string }> } };
      known.articleId = created.data.id;
      known.slug = created.data.slug;
      known.tagId = created.data.tag[0]?.id ?? '';
    };
    /** A cursor the service gives: the next page's, after the newest article (the known one, published). */
    const knownCursor = async () => {
      const page = await api.http.exchange({ method: 'GET', path: '/article?order=newest&limit=1' });
      const cursor = page.kind === 'answered' ? cursorOfLink(page.headers.link) : undefined;
      if (cursor === undefined) throw new Error('GET /article?order=newest&limit=1 gave no cursor');
      return cursor;
    };
    beforeAll(async () => {
      api = await openListeningHarness(kind, { maxSockets: 4, config: { seedEnabled: true } });
      document = jsonOf(await api.http.get('/openapi.json')) as OpenApiDocument;
      validator = await StandardRequestValidator.of(document);
      responses = new OpenApiResponseCheck(document);
      await createKnownArticle();
      known.cursors = [await knownCursor()];
    });
    afterAll(async () => {
      await api?.close();
    });

    /** What a failure shows: the request, both verdicts and the answer. */
    const disagreements = async (request: GeneratedRequest): Promise<string[]> => {
      const exchange = await api.http.exchange({ ...request, method: request.method.toUpperCase() });
      if (exchange.kind !== 'answered') return [`${request.method} ${request.path}: no answer (${exchange.code})`];
      const body = jsonOf(exchange);
      const message = String((body as { message?: unknown } | undefined)?.message ?? '');
      const standard = validator.verdict(request);
      const expected = expectedAnswer(standard.accepted, wordRulesOf(request, known));
      if (request.path === '/article/delete' && exchange.status === 200) await createKnownArticle();
      const problems = responses.problemsOf(request.method, request.path, { ...exchange, body });
      if (!answerAgrees(expected, exchange.status, message)) {
        problems.push(
          `the validator ${standard.accepted ? 'accepts' : `refuses (${standard.why})`} (expected: ` +
            `${describeExpected(expected)}), the service answered ${exchange.status} ${JSON.stringify(message)}`,
        );
      }
      if (exchange.status >= 500) problems.push(`a ${exchange.status}: ${message}`);
      return problems.length === 0
        ? []
        : [
            `${request.method.toUpperCase()} ${request.path} ${JSON.stringify(request.headers)} ${request.body ?? ''}`,
            ...problems,
          ];
    };

    it('takes every request the document allows, as the validator does, and answers as documented', async () => {
      await fc.assert(
        fc.asyncProperty(validRequests(document, known), async (request) => {
          expect(await disagreements(request)).toEqual([]);
        }),
        { seed, numRuns },
      );
    });

    it('refuses exactly the requests the validator refuses, one change away from valid ones', async () => {
      await fc.assert(
        fc.asyncProperty(mutatedRequests(document, known), async (request) => {
          expect(await disagreements(request)).toEqual([]);
        }),
        { seed, numRuns: numRuns * 2 },
      );
    });
  });
}
