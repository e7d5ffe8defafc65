import { z } from 'zod';
import { ARTICLE_RULES, type Article, type Term } from '../../domain';

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
  })
  .meta({
    id: 'Article',
    example: {
      id: 1,
      title: 'Hello',
      description: ARTICLE_RULES.defaultDescription,
      content: 'First post',
      visible: true,
      tag: [{ id: 'uln4q7lk60tqcd7iftk4jvl7', name: 'TypeScript', description: 'Typed JavaScript' }],
      category: [{ id: 'caouzz30pzjud1fiz0lf2zd3', name: 'dev', description: null }],
      createdAt: EXAMPLE_TIME,
      updatedAt: EXAMPLE_TIME,
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
/** Exactly the nine fields of the contract, in its order. */
export type ArticleJson = z.infer<typeof articleJson>;
export type HealthJson = z.infer<typeof healthJson>;
export type ReadinessJson = z.infer<typeof readinessJson>;

export function presentTerm(term: Term): TermJson {
  return { id: term.id, name: term.name, description: term.description };
}

export function presentArticle(article: Article): ArticleJson {
  return {
    id: article.id,
    title: article.title,
    description: article.description,
    content: article.content,
    visible: article.visible,
    tag: article.tags.map(presentTerm),
    category: article.categories.map(presentTerm),
    createdAt: article.createdAt.toISOString(),
    updatedAt: article.updatedAt.toISOString(),
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

/**
 * Exactly `JSON.stringify(presentArticle(article))`, written directly: the whole list's hot
 * path, where building each presented object and its terms' objects, then serialising them,
 * was a third of the service's CPU per list at 100,000 articles (docs/PERFORMANCE.md).
 */
export function articleJsonText(article: Article): string {
  return (
    `{"id":${JSON.stringify(article.id)},"title":${JSON.stringify(article.title)},` +
    `"description":${JSON.stringify(article.description)},"content":${JSON.stringify(article.content)},` +
    `"visible":${JSON.stringify(article.visible)},"tag":[${article.tags.map(termJsonText).join(',')}],` +
    `"category":[${article.categories.map(termJsonText).join(',')}],` +
    `"createdAt":${JSON.stringify(article.createdAt.toISOString())},"updatedAt":${JSON.stringify(article.updatedAt.toISOString())}}`
  );
}
