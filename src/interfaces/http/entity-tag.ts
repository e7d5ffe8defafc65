import { createHash } from 'node:crypto';
import type { ExpectedVersions, ListVersion } from '../../application';
import { type Article, articleStatusAt } from '../../domain';

/**
 * The strong entity tag of an article as a read at `moment` shows it: `"<id>-<version>"`, and
 * `"<id>-<version>s"` while it is scheduled. The version grows with every update, so the tag
 * changes whenever the article does, and the `s` goes when its time arrives (its status and
 * `visible` change then, with no write); clients treat it as opaque.
 */
export function entityTagOf(article: Pick<Article, 'id' | 'version' | 'publishedAt'>, moment: Date): string {
  const scheduled = articleStatusAt(article.publishedAt, moment) === 'scheduled';
  return `"${article.id}-${article.version}${scheduled ? 's' : ''}"`;
}

/**
 * The weak entity tag of a list or page read at storage version `version`: `W/"<22 characters>"`,
 * a digest, so that the version's text (on PostgreSQL the server's address and snapshot) stays
 * inside. Weak: it names the data, not the bytes. Every instance of the service on one database
 * gives the same tag for the same data; it changes with every committed write.
 */
export function listEntityTagOf(version: ListVersion): string {
  return `W/"${createHash('sha256').update(version).digest('base64url').slice(0, 22)}"`;
}

/**
 * One member of an If-Match or If-None-Match list (RFC 9110 §8.8.3): optional `W/`, a quoted tag,
 * then a comma or the end. Sticky, so that the whole header must be made of such members.
 */
const LIST_MEMBER = /[ \t]*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;
const ARTICLE_TAG = /^([1-9][0-9]*)-([1-9][0-9]*)s?$/;

interface ListedTag {
  weak: boolean;
  /** Between the quotes. */
  opaque: string;
}

/** The entity tags of a list header, or null when it is not a list of entity tags. */
function entityTagsIn(header: string): ListedTag[] | null {
  const tags: ListedTag[] = [];
  LIST_MEMBER.lastIndex = 0;
  while (LIST_MEMBER.lastIndex < header.length) {
    const member = LIST_MEMBER.exec(header);
    if (!member || member[0].length === 0) return null;
    tags.push({ weak: member[1] !== undefined, opaque: member[2] ?? '' });
  }
  return tags;
}

/**
 * What an If-Match header asks of a write to article `id`: undefined when the header is absent (no
 * check); `*`, any version of an article that exists; otherwise the versions of this article it
 * names (a scheduled article's tag names its version too: the arrival of its time changes no
 * stored field). Weak tags and tags of another article name no version, and a header that is not
 * a list of entity tags names none at all, so such a header never matches.
 */
export function expectedVersionsOf(ifMatch: string | undefined, id: number): ExpectedVersions | undefined {
  if (ifMatch === undefined) return undefined;
  // Any current representation: an article that exists (a deleted one, being restored, does not).
  if (ifMatch.trim() === '*') return { versions: [], anyVersion: true };
  const versions: number[] = [];
  for (const tag of entityTagsIn(ifMatch) ?? []) {
    const article = tag.weak ? null : ARTICLE_TAG.exec(tag.opaque);
    if (!article || Number(article[1]) !== id) continue;
    const version = Number(article[2]);
    if (Number.isSafeInteger(version)) versions.push(version);
  }
  return { versions };
}

/**
 * Whether an If-None-Match header names `current`, the tag of the representation as it is now
 * (RFC 9110 §13.1.2): `*` names any representation that exists; a list names it by the weak
 * comparison (`W/` ignored). No current tag, an absent header, or one that is not a list of
 * entity tags names nothing.
 */
export function ifNoneMatchNames(ifNoneMatch: string | undefined, current: string | undefined): boolean {
  if (ifNoneMatch === undefined || current === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = entityTagsIn(current)?.[0]?.opaque;
  return (entityTagsIn(ifNoneMatch) ?? []).some((tag) => tag.opaque === opaque);
}
