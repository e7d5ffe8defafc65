import {
  checkMayWrite,
  checkPublicationChange,
  type GuardedArticle,
  mayEdit,
  mayRead,
  publicationOfCreate,
  requireKeyAdmin,
  requireRole,
} from '../../../src/application/access/article-access';
import {
  type Actor,
  ANONYMOUS_ACTOR,
  ArticleNotFoundError,
  type Author,
  ForbiddenError,
  OPEN_ACTOR,
  ROLES,
  type Role,
  UnauthenticatedError,
} from '../../../src/domain';

const MOMENT = new Date('2030-01-01T00:00:00Z');
const ANA: Author = { id: 'a1', name: 'Ana', slug: 'ana' };
const BO: Author = { id: 'b1', name: 'Bo', slug: 'bo' };
const PUBLICATIONS = {
  draft: null,
  scheduled: new Date(MOMENT.getTime() + 1_000),
  published: new Date(MOMENT.getTime() - 1_000),
} as const;

const key = (role: Role, author: Author | null = ANA): Actor => ({ kind: 'key', keyId: 'k', role, author });
const article = (status: keyof typeof PUBLICATIONS, author: Author | null): GuardedArticle => ({
  id: 7,
  publishedAt: PUBLICATIONS[status],
  author,
});

/** The contract's table, written out: who may edit what (own = Ana's article, other = Bo's or nobody's). */
const MAY_EDIT: Record<Role, { own: string[]; other: string[] }> = {
  contributor: { own: ['draft'], other: [] },
  author: { own: ['draft', 'scheduled', 'published'], other: [] },
  editor: { own: ['draft', 'scheduled', 'published'], other: ['draft', 'scheduled', 'published'] },
  admin: { own: ['draft', 'scheduled', 'published'], other: ['draft', 'scheduled', 'published'] },
};

describe('who may read and edit an article', () => {
  for (const role of ROLES) {
    for (const owner of ['own', 'other', 'nobody'] as const) {
      for (const status of ['draft', 'scheduled', 'published'] as const) {
        const target = article(status, owner === 'own' ? ANA : owner === 'other' ? BO : null);
        const editable = MAY_EDIT[role][owner === 'own' ? 'own' : 'other'].includes(status);
        it(`a ${role} and the ${status} article of ${owner}: ${editable ? 'edits' : 'does not edit'}`, () => {
          expect(mayEdit(key(role), target)).toBe(editable);
          expect(mayRead(key(role), target, MOMENT)).toBe(editable || status === 'published');
          const write = () => checkMayWrite(key(role), target, MOMENT, 'update');
          if (editable) expect(write).not.toThrow();
          else if (status === 'published') expect(write).toThrow(ForbiddenError);
          else expect(write).toThrow(ArticleNotFoundError);
        });
      }
    }
  }

  it('open rules: anyone reads and edits anything; anonymous reads only what is published and writes nothing', () => {
    for (const status of ['draft', 'scheduled', 'published'] as const) {
      expect(mayEdit(OPEN_ACTOR, article(status, BO))).toBe(true);
      expect(mayRead(ANONYMOUS_ACTOR, article(status, BO), MOMENT)).toBe(status === 'published');
      expect(() => checkMayWrite(ANONYMOUS_ACTOR, article(status, BO), MOMENT, 'update')).toThrow(UnauthenticatedError);
    }
  });

  it('a key without an author (API_TOKEN) owns nothing: only its role counts', () => {
    expect(mayEdit(key('admin', null), article('draft', null))).toBe(true);
    expect(mayEdit(key('author', null), article('draft', null))).toBe(false);
  });
});

describe('publication a role may ask', () => {
  it("a contributor's create is a draft unless asked; asking to publish or schedule is refused", () => {
    expect(publicationOfCreate(key('contributor'), {})).toEqual({ visible: false });
    expect(publicationOfCreate(key('contributor'), { publishedAt: null })).toEqual({ publishedAt: null });
    expect(() => publicationOfCreate(key('contributor'), { visible: true })).toThrow(ForbiddenError);
    expect(() => publicationOfCreate(key('contributor'), { publishedAt: MOMENT })).toThrow(ForbiddenError);
    expect(publicationOfCreate(key('author'), {})).toEqual({});
    expect(() => publicationOfCreate(ANONYMOUS_ACTOR, {})).toThrow(UnauthenticatedError);
  });

  it('a contributor may unpublish (keep a draft) only', () => {
    expect(() => checkPublicationChange(key('contributor'), { kind: 'set', publishedAt: null })).not.toThrow();
    expect(() => checkPublicationChange(key('contributor'), { kind: 'publish-now', at: MOMENT })).toThrow(
      ForbiddenError,
    );
    expect(() => checkPublicationChange(key('contributor'), { kind: 'set', publishedAt: MOMENT })).toThrow(
      ForbiddenError,
    );
    expect(() => checkPublicationChange(key('author'), { kind: 'publish-now', at: MOMENT })).not.toThrow();
  });

  it('restores and the seed need an editor, keys an admin', () => {
    expect(() => requireRole(key('author'), 'editor', 'a restore')).toThrow(ForbiddenError);
    expect(() => requireRole(key('editor'), 'editor', 'a restore')).not.toThrow();
    expect(() => requireRole(key('editor'), 'admin', 'managing keys')).toThrow(ForbiddenError);
    expect(() => requireRole(OPEN_ACTOR, 'editor', 'a restore')).not.toThrow();
    expect(() => requireKeyAdmin(OPEN_ACTOR)).toThrow(UnauthenticatedError);
    expect(() => requireKeyAdmin(key('editor'))).toThrow(ForbiddenError);
    expect(() => requireKeyAdmin(key('admin', null))).not.toThrow();
    expect(() => requireRole(ANONYMOUS_ACTOR, 'editor', 'a restore')).toThrow(UnauthenticatedError);
  });
});
