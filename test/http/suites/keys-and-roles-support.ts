import type { Response, Test } from 'supertest';
import { ADMIN_WITHOUT_AUTHOR, CreateKey } from '../../../src/application';
import type { HttpHarness } from '../../support/http-harness';

/**
 * What the keys-and-roles suites share: keys made the operator's way (`npm run keys`: CreateKey
 * as ADMIN_WITHOUT_AUTHOR), requests carrying them, and the six articles of the matrix. Nothing
 * here asks src/application/access what a role may do: the suites' tables say it.
 */
export type Role = 'contributor' | 'author' | 'editor' | 'admin';
/** Who asks: a key of a role, or no key at all. */
export type Asker = Role | 'anonymous';
export const ASKERS: readonly Asker[] = ['anonymous', 'contributor', 'author', 'editor', 'admin'];

export type Owner = 'own' | 'other';
export type Status = 'draft' | 'scheduled' | 'published';
/** The six articles, in the order of every row of the suites' tables. */
export const CASES: readonly { owner: Owner; status: Status }[] = [
  { owner: 'own', status: 'draft' },
  { owner: 'own', status: 'scheduled' },
  { owner: 'own', status: 'published' },
  { owner: 'other', status: 'draft' },
  { owner: 'other', status: 'scheduled' },
  { owner: 'other', status: 'published' },
];
/** A row of a table: one expected outcome per article of CASES, in that order. */
export type Row<T> = readonly [T, T, T, T, T, T];

/** The app's clock starts here at each test; FUTURE stays ahead of it unless a test moves it past. */
export const T0 = '2026-09-01T09:00:00.000Z';
export const FUTURE = '2027-03-01T00:00:00.000Z';
export const PAST = '2025-01-01T00:00:00.000Z';

/** The asker's author: "own" articles are this author's. */
export const OWN_AUTHOR = 'Ana';
export const OTHER_AUTHOR = 'Bo';

export interface Key {
  readonly id: string;
  readonly token: string;
}

/** A key made as `npm run keys -- create` makes it. */
export async function newKey(harness: HttpHarness, author: string, role: Role, expiresInDays?: number): Promise<Key> {
  const input = expiresInDays === undefined ? { author, role } : { author, role, expiresInDays };
  const { key, token } = await harness.container.get(CreateKey).execute(input, ADMIN_WITHOUT_AUTHOR);
  return { id: key.id, token };
}

/** The asker's token: a key of its role for OWN_AUTHOR, or none. */
export async function tokenOf(harness: HttpHarness, asker: Asker): Promise<string | null> {
  return asker === 'anonymous' ? null : (await newKey(harness, OWN_AUTHOR, asker)).token;
}

export interface Requests {
  get(path: string): Test;
  post(path: string, body: object): Test;
}

/** Requests carrying `Authorization: Bearer <token>`, or no Authorization at all when null. */
export function as(harness: HttpHarness, token: string | null): Requests {
  const sign = (test: Test) => (token === null ? test : test.set('Authorization', `Bearer ${token}`));
  return {
    get: (path) => sign(harness.http().get(path)),
    post: (path, body) => sign(harness.http().post(path)).send(body),
  };
}

export const idsOf = (response: Response): number[] => (response.body.data as { id: number }[]).map(({ id }) => id);

export interface MatrixArticle {
  readonly owner: Owner;
  readonly status: Status;
  readonly id: number;
  readonly slug: string;
  /** The title it was created with: revision 1 holds it. */
  readonly firstTitle: string;
}

export interface Matrix {
  /** An admin key of an author of its own, for reading what a request left behind. */
  readonly admin: Key;
  /** The six articles of CASES, in that order. */
  readonly articles: Row<MatrixArticle>;
}

const PUBLICATION: Record<Status, object> = {
  draft: { visible: false },
  scheduled: { publishedAt: FUTURE },
  published: { visible: true },
};

/**
 * The six articles, each written by an `author` key of its owner (OWN_AUTHOR or OTHER_AUTHOR),
 * then updated once by it, so that each has revision 1 to restore.
 */
export async function openMatrix(harness: HttpHarness): Promise<Matrix> {
  const writers = {
    own: await newKey(harness, OWN_AUTHOR, 'author'),
    other: await newKey(harness, OTHER_AUTHOR, 'author'),
  };
  const admin = await newKey(harness, 'Root', 'admin');
  const articles: MatrixArticle[] = [];
  for (const { owner, status } of CASES) {
    const slug = `${owner}-${status}`;
    const writer = as(harness, writers[owner].token);
    const firstTitle = `${slug} first`;
    const created = await writer.post('/article/create', {
      title: firstTitle,
      content: 'c',
      slug,
      ...PUBLICATION[status],
    });
    expect({ slug, status: created.status }).toEqual({ slug, status: 201 });
    const author = owner === 'own' ? OWN_AUTHOR : OTHER_AUTHOR;
    expect(created.body.data).toMatchObject({ status, author: { name: author, slug: author.toLowerCase() } });
    const id = created.body.data.id as number;
    const updated = await writer.post('/article/update', { id, title: `${slug} second` });
    expect({ slug, status: updated.status }).toEqual({ slug, status: 200 });
    articles.push({ owner, status, id, slug, firstTitle });
  }
  return { admin, articles: articles as unknown as Row<MatrixArticle> };
}

/** An article as an admin reads it: its answer (null when gone), its version, how many revisions it has. */
export interface Snapshot {
  readonly article: unknown;
  readonly etag: string | undefined;
  readonly revisions: number | null;
}

export async function snapshotOf(harness: HttpHarness, admin: Key, id: number): Promise<Snapshot> {
  const reader = as(harness, admin.token);
  const read = await reader.get(`/article/${id}`);
  expect(read.status).toBe(200);
  const revisions = await reader.get(`/article/${id}/revisions`);
  return {
    article: read.body.data,
    etag: read.headers.etag,
    revisions: revisions.status === 200 ? revisions.body.data.length : null,
  };
}

/** The message of a refusal by its status: 401 no valid credential, 403 the role; a 404 is checked against a missing article's. */
export function refusalMessage(status: 401 | 403): RegExp {
  return status === 401 ? /Authorization: Bearer/ : /^forbidden: /;
}

/** An id no article ever has in these suites. */
export const NEVER_AN_ARTICLE = 2_000_000_000;
