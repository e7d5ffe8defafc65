import type { ExpectedVersions } from '../../application';
import type { Article } from '../../domain';

/**
 * The strong entity tag of an article: `"<id>-<version>"`. The version grows with every update,
 * so the tag changes whenever the article does; clients treat it as opaque.
 */
export function entityTagOf(article: Pick<Article, 'id' | 'version'>): string {
  return `"${article.id}-${article.version}"`;
}

/**
 * One member of an If-Match list (RFC 9110 §8.8.3): optional `W/`, a quoted tag, then a comma or
 * the end. Sticky, so that the whole header must be made of such members.
 */
const LIST_MEMBER = /[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;
const ARTICLE_TAG = /^([1-9][0-9]*)-([1-9][0-9]*)$/;

/**
 * What an If-Match header asks of a write to article `id`: undefined when the header is absent or
 * `*` (no check), otherwise the versions of this article it names. Weak tags and tags of another
 * article name no version, and a header that is not a list of entity tags names none at all, so
 * such a header never matches.
 */
export function expectedVersionsOf(ifMatch: string | undefined, id: number): ExpectedVersions | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const versions: number[] = [];
  LIST_MEMBER.lastIndex = 0;
  while (LIST_MEMBER.lastIndex < ifMatch.length) {
    const member = LIST_MEMBER.exec(ifMatch);
    if (!member || member[0].length === 0) return { versions: [] };
    if (member[1] !== undefined) continue;
    const article = ARTICLE_TAG.exec(member[2] ?? '');
    if (!article || Number(article[1]) !== id) continue;
    const version = Number(article[2]);
    if (Number.isSafeInteger(version)) versions.push(version);
  }
  return { versions };
}
