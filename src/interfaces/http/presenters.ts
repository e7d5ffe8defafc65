import { z } from 'zod';
import {
  ARTICLE_RULES,
  type Article,
  type ArticleRevision,
  type Author,
  articleStatusAt,
  readingTimeOf,
  SLUG_PATTERN,
  SLUG_RULES,
  type Term,
} from '../../domain';

/* The shapes of what the API answers. The types below come from them, and so does the OpenAPI document. */

export const termJson = z
  .object({
    id: z
      .string()
      .meta({ description: 'Generated when the tag or category was first named', example: 'uln4q7lk60tqcd7iftk4jvl7' }),
    name: z.string().meta({ example: 'TypeScript' }),
    description: z.string().nullable().meta({ example: 'Typed JavaScript' }),
  })
  .meta({
    id: 'Term',
    description: 'A tag or a category',
    example: { id: 'uln4q7lk60tqcd7iftk4jvl7', name: 'TypeScript', description: 'Typed JavaScript' },
  });

const EXAMPLE_TIME = '2026-11-22T01:58:58.672Z';

/** An article as the API answers it, for the document's examples. */
const ARTICLE_EXAMPLE = {
  id: 1,
  title: 'Hello',
  description: ARTICLE_RULES.defaultDescription,
  content: 'First post',
  visible: true,
  tag: [{ id: 'uln4q7lk60tqcd7iftk4jvl7', name: 'TypeScript', description: 'Typed JavaScript' }],
  category: [{ id: 'caouzz30pzjud1fiz0lf2zd3', name: 'dev', description: null }],
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
  slug: 'hello',
  publishedAt: EXAMPLE_TIME,
  status: 'published',
  featured: false,
  readingTime: 1,
  author: { id: 'a8k2m4p6r8t0v2x4z6b8d0f2', name: 'Ada Lovelace', slug: 'ada-lovelace' },
};

export const authorJson = z
  .object({
    id: z.string().meta({ example: 'a8k2m4p6r8t0v2x4z6b8d0f2' }),
    name: z.string().meta({ example: 'Ada Lovelace' }),
    slug: z.string().meta({ example: 'ada-lovelace' }),
  })
  .meta({
    id: 'Author',
    description: 'Who wrote an article: the author of the key that created it',
    example: { id: 'a8k2m4p6r8t0v2x4z6b8d0f2', name: 'Ada Lovelace', slug: 'ada-lovelace' },
  });

export const articleJson = z
  .object({
    id: z.number().int().min(1).max(ARTICLE_RULES.maxId).meta({ example: 1 }),
    title: z.string().nullable().meta({ example: 'Hello' }),
    description: z.string().meta({ example: ARTICLE_RULES.defaultDescription }),
    content: z.string().meta({ example: 'First post' }),
    visible: z.boolean().meta({ example: true }),
    tag: z.array(termJson).meta({ description: 'Sorted by name' }),
    category: z.array(termJson).meta({ description: 'Sorted by name' }),
    createdAt: z.iso.datetime().meta({ example: EXAMPLE_TIME }),
    updatedAt: z.iso.datetime().meta({ example: EXAMPLE_TIME }),
    slug: z
      .string()
      .min(1)
      .max(SLUG_RULES.maxLength)
      .regex(SLUG_PATTERN)
      .meta({ description: 'Unique among current articles; made from the title unless given', example: 'hello' }),
    publishedAt: z.iso.datetime().nullable().meta({
      description: 'null: a draft; later than now: scheduled; otherwise published (at that time)',
      example: EXAMPLE_TIME,
    }),
    status: z.enum(['draft', 'scheduled', 'published']).meta({
      description: 'Derived from publishedAt at the moment of the read; `visible` is `status === "published"`',
      example: 'published',
    }),
    featured: z.boolean().meta({ example: false }),
    readingTime: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'Minutes: 275 words or 500 CJK characters a minute, at least 1', example: 1 }),
    author: authorJson.nullable().meta({ description: 'null: created without a key' }),
  })
  .meta({
    id: 'Article',
    example: ARTICLE_EXAMPLE,
  });

export const revisionJson = z
  .object({
    revision: z.number().int().min(1).meta({ example: 2 }),
    replacedAt: z.iso
      .datetime()
      .meta({ description: 'When the write that replaced it happened', example: EXAMPLE_TIME }),
    article: articleJson.meta({ description: 'The article as it was just before; its status as it was then' }),
  })
  .meta({
    id: 'Revision',
    example: {
      revision: 1,
      replacedAt: EXAMPLE_TIME,
      article: ARTICLE_EXAMPLE,
    },
  });

export const healthJson = z
  .object({ status: z.literal('ok').meta({ example: 'ok' }) })
  .meta({ id: 'Health', example: { status: 'ok' } });

export const readinessJson = z
  .object({
    status: z.literal('ready').meta({ example: 'ready' }),
    writes: z.enum(['available', 'unavailable']).meta({
      description:
        'available: the primary answers and takes writes. unavailable: only reads are served (the primary is gone or read-only, a failover may be under way); writes answer the 503 wrapper with Retry-After',
      example: 'available',
    }),
  })
  .meta({ id: 'Readiness', example: { status: 'ready', writes: 'available' } });

export type TermJson = z.infer<typeof termJson>;
export type AuthorJson = z.infer<typeof authorJson>;
/** Exactly the fields of the contract, in its order: the original nine, then the publishing ones. */
export type ArticleJson = z.infer<typeof articleJson>;
export type HealthJson = z.infer<typeof healthJson>;
export type RevisionJson = z.infer<typeof revisionJson>;
export type ReadinessJson = z.infer<typeof readinessJson>;

export function presentTerm(term: Term): TermJson {
  return { id: term.id, name: term.name, description: term.description };
}

/** The article as the API shows it to a read that started at `moment` (its status is decided then). */
export function presentArticle(article: Article, moment: Date): ArticleJson {
  const status = articleStatusAt(article.publishedAt, moment);
  return {
    id: article.id,
    title: article.title,
    description: article.description,
    content: article.content,
    visible: status === 'published',
    tag: article.tags.map(presentTerm),
    category: article.categories.map(presentTerm),
    createdAt: article.createdAt.toISOString(),
    updatedAt: article.updatedAt.toISOString(),
    slug: article.slug,
    publishedAt: article.publishedAt?.toISOString() ?? null,
    status,
    featured: article.featured,
    readingTime: readingTimeOf(article.content),
    author: article.author && presentAuthor(article.author),
  };
}

export function presentAuthor(author: Author): AuthorJson {
  return { id: author.id, name: author.name, slug: author.slug };
}

/** A revision as the API shows it: the article as it was answered at the moment it was replaced. */
export function presentRevision(revision: ArticleRevision): RevisionJson {
  return {
    revision: revision.revision,
    replacedAt: revision.replacedAt.toISOString(),
    article: presentArticle(revision.article, revision.replacedAt),
  };
}

/**
 * Each term's JSON text, kept while the term object lives. A streamed list's articles share
 * their term objects (the stream reads each term once), so 100,000 articles with 5 terms each
 * write each of a few dozen terms once instead of 500,000 times. Terms are immutable.
 */
const termTexts = new WeakMap<Term, string>();

function termJsonText(term: Term): string {
  let text = termTexts.get(term);
  if (text === undefined) {
    text = JSON.stringify(presentTerm(term));
    termTexts.set(term, text);
  }
  return text;
}

/** Each author's JSON text, kept while the author object lives (a stream shares them, as terms). */
const authorTexts = new WeakMap<Author, string>();

function authorJsonText(author: Author | null): string {
  if (author === null) return 'null';
  let text = authorTexts.get(author);
  if (text === undefined) {
    text = JSON.stringify(presentAuthor(author));
    authorTexts.set(author, text);
  }
  return text;
}

/**
 * Exactly `JSON.stringify(presentArticle(article, moment))`, written directly (appendArticleJson).
 */
export function articleJsonText(article: Article, moment: Date): string {
  const parts: string[] = [];
  appendArticleJson(parts, article, moment);
  return parts.join('');
}

/**
 * Pushes the article's JSON text onto `parts`, in pieces, so that a list joins many articles
 * with one copy of their characters: the whole list's hot path, where building each presented
 * object, then serialising it, was a third of the service's CPU per list at 100,000 articles,
 * and a text built by concatenation was garbage twice (its pieces, then its flattened copy).
 */
export function appendArticleJson(parts: string[], article: Article, moment: Date): void {
  const status = articleStatusAt(article.publishedAt, moment);
  parts.push('{"id":', String(article.id), ',"title":');
  if (article.title === null) parts.push('null');
  else appendJsonString(parts, article.title);
  parts.push(',"description":');
  appendJsonString(parts, article.description);
  parts.push(',"content":');
  appendJsonString(parts, article.content);
  parts.push(status === 'published' ? ',"visible":true,"tag":[' : ',"visible":false,"tag":[');
  appendTermsJson(parts, article.tags);
  parts.push('],"category":[');
  appendTermsJson(parts, article.categories);
  // A slug is [a-z0-9-] and an ISO time has no character JSON escapes: no stringify needed.
  // An instant equal to the creation (an article never edited, or published as it was created)
  // reuses its text.
  const created = article.createdAt.toISOString();
  parts.push(
    '],"createdAt":"',
    created,
    '","updatedAt":"',
    sameInstantText(article.updatedAt, article.createdAt, created),
    '","slug":"',
    article.slug,
  );
  if (article.publishedAt === null) parts.push('","publishedAt":null,"status":"');
  else
    parts.push('","publishedAt":"', sameInstantText(article.publishedAt, article.createdAt, created), '","status":"');
  parts.push(
    status,
    article.featured ? '","featured":true,"readingTime":' : '","featured":false,"readingTime":',
    String(readingTimeOf(article.content)),
    ',"author":',
    authorJsonText(article.author),
    '}',
  );
}

/** The characters JSON.stringify escapes in a string (lone surrogates among them). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The text as a JSON string: between quotes as it is when nothing in it needs escaping (no copy). */
function appendJsonString(parts: string[], text: string): void {
  if (ESCAPED_IN_JSON.test(text)) parts.push(JSON.stringify(text));
  else parts.push('"', text, '"');
}

function sameInstantText(instant: Date, known: Date, knownText: string): string {
  return instant.getTime() === known.getTime() ? knownText : instant.toISOString();
}

function appendTermsJson(parts: string[], terms: readonly Term[]): void {
  for (let index = 0; index < terms.length; index++) {
    if (index > 0) parts.push(',');
    parts.push(termJsonText(terms[index] as Term));
  }
}
