import type { IncomingMessage } from 'node:http';
import { isSlug } from '../../src/domain/slug';
import type { ArticleChanges, NewArticle, Publication, TermRef } from './article-store';

const BODY_LIMIT = 1_048_576;
const DEFAULT_DESCRIPTION = '这篇文章还没有介绍...';

/** A request the baseline refuses; `status` is its HTTP status. */
export class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    throw new BadRequest(415, 'The body must be JSON, sent with Content-Type: application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new BadRequest(413, `body: larger than the limit of ${BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadRequest(400, 'body: is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequest(400, 'body: expected a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * The structural checks a raw service would make on the happy path (types, required fields).
 * The service's full rule set (code-point lengths, unknown fields, NUL) is not repeated here:
 * the baseline is a speed reference for valid requests.
 */
export function toNewArticle(body: Record<string, unknown>): NewArticle {
  const content = body.content;
  if (typeof content !== 'string' || content.length === 0) throw new BadRequest(400, 'content: is required');
  // The service's publishedAtOfNewArticle: `visible: false` a draft, else published at the create's time.
  const publication = publicationOf(body);
  return {
    title: optionalTitle(body) ?? null,
    description: optionalString(body, 'description') ?? DEFAULT_DESCRIPTION,
    content,
    featured: optionalBoolean(body, 'featured') ?? false,
    ...(publication?.kind === 'set' ? { publishedAt: publication.publishedAt } : {}),
    ...optionalSlug(body),
    tag: termRefs(body.tag, 'tag') ?? [],
    category: termRefs(body.category, 'category') ?? [],
  };
}

export function toChanges(body: Record<string, unknown>): ArticleChanges {
  const id = body.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new BadRequest(400, 'id: must be a positive integer');
  }
  const content = optionalString(body, 'content');
  if (content === '') throw new BadRequest(400, 'content: must not be empty');
  return {
    id,
    title: optionalTitle(body),
    description: optionalString(body, 'description'),
    content,
    featured: optionalBoolean(body, 'featured'),
    publication: publicationOf(body),
    ...optionalSlug(body),
    tag: termRefs(body.tag, 'tag'),
    category: termRefs(body.category, 'category'),
  };
}

/**
 * The publication a body asks for, as the service's publicationChangeOf: `publishedAt` sets it
 * (null: a draft), `visible: true` publishes now (a published article stays as it is),
 * `visible: false` makes a draft; never both fields.
 */
function publicationOf(body: Record<string, unknown>): Publication | undefined {
  const visible = optionalBoolean(body, 'visible');
  const raw = body.publishedAt;
  if (visible !== undefined && raw !== undefined) throw new BadRequest(400, 'visible, publishedAt: give one of them');
  if (raw === null) return { kind: 'set', publishedAt: null };
  if (raw !== undefined) {
    const at = typeof raw === 'string' ? new Date(raw) : new Date(Number.NaN);
    if (Number.isNaN(at.getTime())) throw new BadRequest(400, 'publishedAt: expected an ISO 8601 date-time');
    return { kind: 'set', publishedAt: at };
  }
  if (visible === undefined) return undefined;
  return visible ? { kind: 'now' } : { kind: 'set', publishedAt: null };
}

/** `{ slug }` when the body gives one (checked against the service's pattern), else nothing. */
function optionalSlug(body: Record<string, unknown>): { slug?: string } {
  const slug = optionalString(body, 'slug');
  if (slug === undefined) return {};
  if (!isSlug(slug)) throw new BadRequest(400, 'slug: must be a-z, 0-9 and single hyphens between them');
  return { slug };
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value !== undefined && typeof value !== 'string') throw new BadRequest(400, `${field}: expected a string`);
  return value;
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value !== undefined && typeof value !== 'boolean') throw new BadRequest(400, `${field}: expected a boolean`);
  return value;
}

/** The title may be null. */
function optionalTitle(body: Record<string, unknown>): string | null | undefined {
  return body.title === null ? null : optionalString(body, 'title');
}

function termRefs(value: unknown, field: string): TermRef[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 50) throw new BadRequest(400, `${field}: expected at most 50 references`);
  return value.map((reference: { id?: unknown; name?: unknown; description?: unknown }) => {
    if (typeof reference?.id === 'string') return { id: reference.id };
    if (typeof reference?.name === 'string' && reference.name.trim() !== '') {
      const description = typeof reference.description === 'string' ? reference.description : null;
      return { name: reference.name.trim(), description };
    }
    throw new BadRequest(400, `${field}: a reference needs an id or a name`);
  });
}
