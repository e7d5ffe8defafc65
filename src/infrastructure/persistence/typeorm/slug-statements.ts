import type { StatementParts } from './sql-statement';

/** The statements of slugs: an article by its slug, earlier slugs (table article_slugs), free candidates (ADR 0041). */
export function slugStatements({ d, statement, withTermsOf, writes }: StatementParts) {
  const p = d.param;
  return {
    /** The article whose slug is $1. */
    findArticleBySlug: statement(
      'find_article_by_slug',
      `SELECT ${withTermsOf('a')} FROM articles a WHERE a.slug = ${p(1)}`,
    ),
    /** The id and current slug of the article whose earlier slug is $1. */
    findEarlierSlug: statement(
      'find_earlier_slug',
      `SELECT a.id, a.slug FROM article_slugs s JOIN articles a ON a.id = s.article_id WHERE s.slug = ${p(1)}`,
    ),
    /** Which of the slugs in JSON array $1 current articles have (through the unique index). */
    slugsTakenAmong: statement(
      'slugs_taken_among',
      `SELECT slug FROM articles WHERE slug IN ${d.jsonElements(1, 'text')}`,
    ),
    /**
     * Article $2's slug $1 was replaced: it leads to the article from now on (taken over from
     * another article that had it earlier, if one did); and $3, the slug it now has, leads
     * nowhere else any more.
     */
    rememberSlug: writes('remember_slug', [
      statement(
        'remember_earlier_slug',
        `INSERT INTO article_slugs (slug, article_id) VALUES (${p(1)}, ${p(2)})
           ON CONFLICT (slug) DO UPDATE SET article_id = excluded.article_id`,
      ),
      statement('forget_earlier_slug', `DELETE FROM article_slugs WHERE slug = ${p(3)}`),
    ]),
    /** Ends the redirect of an earlier slug $1 that a new article took. */
    forgetEarlierSlug: statement('forget_earlier_slug', `DELETE FROM article_slugs WHERE slug = ${p(1)}`),
  };
}
