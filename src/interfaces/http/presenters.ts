import { z } from 'zod';
import type { Article, Term } from '../../domain';

/* The shapes of what the API answers. The types below come from them, and so does the OpenAPI document. */

export const termJson = z
  .object({
    id: z.string().meta({ description: 'Generated when the tag or category was first named' }),
    name: z.string(),
    description: z.string().nullable(),
  })
  .meta({ id: 'Term', description: 'A tag or a category' });

export const articleJson = z
  .object({
    id: z.number().int().min(1),
    title: z.string().nullable(),
    description: z.string(),
    content: z.string(),
    visible: z.boolean(),
    tag: z.array(termJson).meta({ description: 'Sorted by name' }),
    category: z.array(termJson).meta({ description: 'Sorted by name' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Article' });

export const healthJson = z.object({ status: z.enum(['ok', 'ready']) }).meta({ id: 'Health' });

export type TermJson = z.infer<typeof termJson>;
/** Exactly the nine fields of the contract, in its order. */
export type ArticleJson = z.infer<typeof articleJson>;
export type HealthJson = z.infer<typeof healthJson>;

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
