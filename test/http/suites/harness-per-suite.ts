import type { AppConfig } from '../../../src/infrastructure/config/config';
import {
  type HttpHarness,
  type HttpHarnessOptions,
  openHttpHarness,
  type StorageKind,
} from '../../support/http-harness';

/** Opens one harness for the enclosing describe, empty before each test. */
export function useHarness(
  kind: StorageKind,
  config: Partial<AppConfig> = {},
  options: HttpHarnessOptions = {},
): () => HttpHarness {
  let harness: HttpHarness | undefined;
  beforeAll(async () => {
    harness = await openHttpHarness(kind, config, options);
  });
  beforeEach(async () => {
    await harness?.reset();
  });
  afterAll(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('harness not open');
    return harness;
  };
}

export const ARTICLE_KEYS = [
  'id',
  'title',
  'description',
  'content',
  'visible',
  'tag',
  'category',
  'createdAt',
  'updatedAt',
  'slug',
  'publishedAt',
  'status',
  'featured',
  'readingTime',
  'author',
];

export const failureBody = (message: string | RegExp) => ({
  statusCode: 10001,
  data: null,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
});
