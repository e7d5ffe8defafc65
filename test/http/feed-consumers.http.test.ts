import { codePointLength, TERM_RULES, unstorableTextReason } from '../../src/domain';
import {
  AWKWARD_TEXTS,
  parseWithFeedparser,
  parseWithRssParser,
  validateAtom,
  xmlSafe,
} from '../support/feed-consumers';
import { type HttpHarness, openHttpHarness } from '../support/http-harness';

/** What the API stores: a lone surrogate is refused at the door (a 400), so no feed ever holds one. */
const STORABLE = AWKWARD_TEXTS.filter((text) => unstorableTextReason(text) === null);
/** feedparser reads U+0080–U+009F as windows-1252: those texts are compared through rss-parser only. */
const C1 = /[\u0080-\u009f]/;
/** feedparser reads an RSS description as HTML: texts with markup or references come back changed. */
const HTML_LIKE = /[<>&\r]/;

/**
 * The feeds as real consumers read them, over a corpus of awkward text (every control character,
 * U+FFFE/U+FFFF, emoji, right-to-left text, `]]>`, `<script>`): the Atom feed valid by RFC 4287's
 * RELAX NG schema (jing) and its Schematron rules, RSS and Atom well-formed for feedparser (not
 * "bozo") and read back by it and by rss-parser as the contract says (text XML cannot carry
 * becomes U+FFFD, everything else unchanged), JSON Feed unchanged.
 */
describe('feeds read by jing, feedparser and rss-parser, over awkward text (PostgreSQL)', () => {
  let opened: HttpHarness | undefined;
  const harness = () => opened as HttpHarness;
  /** The corpus, newest first as the feeds list them. */
  let newestFirst: string[];
  let ids: number[];

  beforeAll(async () => {
    opened = await openHttpHarness('postgres', {
      feeds: {
        publicUrl: 'https://blog.example',
        articleUrlTemplate: 'https://blog.example/{slug}',
        size: 100,
        title: 'Awkward <&> "Blog" \u0001',
      },
    });
    ids = [];
    for (const text of STORABLE) {
      const tag = codePointLength(text.trim()) <= TERM_RULES.nameMaxLength ? [{ name: text }] : [];
      const created = await harness()
        .http()
        .post('/article/create')
        .send({ title: text, description: text, content: text, tag })
        .expect(201);
      ids.push(created.body.data.id);
    }
    newestFirst = [...STORABLE].reverse();
    ids.reverse();
  });
  afterAll(() => opened?.close());

  it('refuses, at the door, the lone surrogates a feed could not carry', async () => {
    expect(STORABLE.length).toBeGreaterThan(40);
    expect(AWKWARD_TEXTS.length - STORABLE.length).toBe(2);
  });

  it('Atom: valid by RFC 4287 (jing and the Schematron rules), read back by feedparser and rss-parser', async () => {
    const atom = await harness().http().get('/feeds/atom.xml').expect(200);
    await expect(validateAtom(atom.text)).resolves.toEqual({ valid: true, errors: '' });

    const parsed = await parseWithFeedparser(Buffer.from(atom.text, 'utf8'), atom.headers['content-type'] as string);
    expect({ bozo: parsed.bozo, exception: parsed.bozoException, version: parsed.version }).toEqual({
      bozo: false,
      exception: null,
      version: 'atom10',
    });
    expect(parsed.feed.title).toBe(xmlSafe('Awkward <&> "Blog" \u0001'));
    expect(parsed.entries.map((entry) => entry.id)).toEqual(ids.map((id) => `tag:blog.example,2026:article:${id}`));
    parsed.entries.forEach((entry, index) => {
      const text = newestFirst[index] as string;
      if (C1.test(text)) return;
      const expected = xmlSafe(text);
      expect({ text, title: entry.title, summary: entry.summary, content: entry.content }).toEqual({
        text,
        title: expected,
        summary: expected,
        content: expected,
      });
    });

    const read = await parseWithRssParser(atom.text);
    read.items.forEach((item, index) => {
      const expected = xmlSafe(newestFirst[index] as string);
      expect({ title: item.title, summary: item.summary, content: item.content }).toEqual({
        title: expected,
        summary: expected,
        content: expected,
      });
    });
  });

  it('RSS 2.0: well-formed for feedparser, read back by it and by rss-parser', async () => {
    const rss = await harness().http().get('/feeds/rss.xml').expect(200);
    const parsed = await parseWithFeedparser(Buffer.from(rss.text, 'utf8'), rss.headers['content-type'] as string);
    expect({ bozo: parsed.bozo, exception: parsed.bozoException, version: parsed.version }).toEqual({
      bozo: false,
      exception: null,
      version: 'rss20',
    });
    expect(parsed.entries).toHaveLength(STORABLE.length);
    parsed.entries.forEach((entry, index) => {
      const text = newestFirst[index] as string;
      if (C1.test(text)) return;
      const expected = xmlSafe(text);
      expect({ text, title: entry.title, link: entry.link }).toEqual({
        text,
        title: expected,
        link: expect.stringMatching(/^https:\/\/blog\.example\/[a-z0-9-]+$/),
      });
      if (!HTML_LIKE.test(text)) expect({ text, summary: entry.summary }).toEqual({ text, summary: expected });
    });

    const read = await parseWithRssParser(rss.text);
    expect(read.items).toHaveLength(STORABLE.length);
    read.items.forEach((item, index) => {
      const text = newestFirst[index] as string;
      const tagged = codePointLength(text.trim()) <= TERM_RULES.nameMaxLength;
      expect({ title: item.title, description: item.content, categories: item.categories }).toEqual({
        title: xmlSafe(text),
        description: xmlSafe(text),
        categories: tagged ? [xmlSafe(text.trim())] : [],
      });
    });
  });

  it('JSON Feed: every text exactly as stored', async () => {
    const feed = (await harness().http().get('/feeds/feed.json').expect(200)).body;
    expect(feed.items.map((item: { title: string }) => item.title)).toEqual(newestFirst);
    expect(feed.items.map((item: { content_text: string }) => item.content_text)).toEqual(newestFirst);
  });
});
