import {
  applyPublicationChange,
  articleStatusAt,
  publicationChangeOf,
  publishedAtOfNewArticle,
  ValidationError,
} from '../../../src/domain';

const T = new Date('2026-06-01T12:00:00.000Z');
const later = new Date(T.getTime() + 1);
const earlier = new Date(T.getTime() - 1);

describe('articleStatusAt', () => {
  it('is a draft without publishedAt, scheduled before it, published from it on', () => {
    expect(articleStatusAt(null, T)).toBe('draft');
    expect(articleStatusAt(later, T)).toBe('scheduled');
    expect(articleStatusAt(T, T)).toBe('published');
    expect(articleStatusAt(earlier, T)).toBe('published');
  });
});

describe('publishedAtOfNewArticle', () => {
  it('publishes at the creation unless visible is false; publishedAt sets the time itself', () => {
    expect(publishedAtOfNewArticle({}, T)).toEqual(T);
    expect(publishedAtOfNewArticle({ visible: true }, T)).toEqual(T);
    expect(publishedAtOfNewArticle({ visible: false }, T)).toBeNull();
    expect(publishedAtOfNewArticle({ publishedAt: later }, T)).toEqual(later);
    expect(publishedAtOfNewArticle({ publishedAt: null }, T)).toBeNull();
  });

  it('refuses visible and publishedAt together, naming both', () => {
    expect(() => publishedAtOfNewArticle({ visible: true, publishedAt: T }, T)).toThrow(
      new ValidationError('visible, publishedAt', 'give one of them, not both'),
    );
  });
});

describe('publicationChangeOf and applyPublicationChange', () => {
  it('maps visible and publishedAt to a change, and none to none', () => {
    expect(publicationChangeOf({}, T)).toBeUndefined();
    expect(publicationChangeOf({ visible: true }, T)).toEqual({ kind: 'publish-now', at: T });
    expect(publicationChangeOf({ visible: false }, T)).toEqual({ kind: 'set', publishedAt: null });
    expect(publicationChangeOf({ publishedAt: later }, T)).toEqual({ kind: 'set', publishedAt: later });
    expect(() => publicationChangeOf({ visible: false, publishedAt: null }, T)).toThrow(ValidationError);
  });

  it('publishes now a draft or a scheduled article, and leaves a published one as it was published', () => {
    const now = { kind: 'publish-now', at: T } as const;
    expect(applyPublicationChange(null, now)).toEqual(T);
    expect(applyPublicationChange(later, now)).toEqual(T);
    expect(applyPublicationChange(earlier, now)).toEqual(earlier);
    expect(applyPublicationChange(T, now)).toEqual(T);
    expect(applyPublicationChange(earlier, { kind: 'set', publishedAt: null })).toBeNull();
    expect(applyPublicationChange(earlier, undefined)).toEqual(earlier);
  });
});
