import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Parser from 'rss-parser';

/*
 * Real consumers of the service's feeds, so that a feed test proves more than our own reading of
 * the specs: jing with RFC 4287's own schema for Atom, feedparser (what most Python feed readers
 * use) for RSS and Atom, and rss-parser (the common Node.js one). Debian's jing and
 * python3-feedparser come from scripts/ensure-debian-packages.sh (npm test's pretest).
 *
 * What a test may compare exactly (found with feedparser 6.0.10 and rss-parser 3.13.0): after
 * xmlSafe(), emoji (ZWJ sequences, flags), RTL text and U+202E, combining marks, U+007F, U+FFFD,
 * & < > and quotes come back unchanged from both, and besides that:
 * - Line ends: a CR written raw, or in a CRLF, reaches feedparser (and jing) as LF, by XML's
 *   line-end rule; only the reference &#13; survives as CR. rss-parser (sax) keeps a raw CR.
 *   Tabs and LFs survive in element text. In an attribute (an Atom category's term) feedparser
 *   turns a raw tab, LF or CR into a space (attribute normalisation): only &#9; &#10; &#13; survive.
 * - feedparser strips leading and trailing whitespace from element text (not from attributes);
 *   rss-parser keeps it.
 * - feedparser maps U+0080-U+009F as windows-1252 (U+0085 comes back as U+2026) and "repairs" a
 *   text whose characters are all Latin-1 and form UTF-8 when taken as bytes ("Ã©" becomes "é"):
 *   compare such texts with rss-parser only.
 * - feedparser sanitises as HTML an RSS description, an Atom text or content of type="html" (and
 *   an RSS text that looks like HTML): <script> goes with its text, so does "<![CDATA[...]]>" text,
 *   and CRLF becomes LF. Compare those fields only for texts without markup; RSS titles, categories
 *   and Atom type="text" fields come back as written.
 * - rss-parser reads what is not well-formed (a raw U+0001) without complaint: well-formedness is
 *   for jing and feedparser's bozo to prove.
 * - None of the three reads JSON Feed (feedparser 6.0.10 reports it bozo, with no entries).
 */

const FEEDS = path.resolve(__dirname, 'feeds');
const ATOM_SCHEMA = path.join(FEEDS, 'atom.rnc');
const FEEDPARSER_CHECK = path.join(FEEDS, 'feedparser-check.py');
/** Debian's python3-feedparser is importable by Debian's Python only, not by a pyenv python3. */
const DEBIAN_PYTHON = '/usr/bin/python3';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], input?: Buffer): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) =>
      reject(new Error(`${command}: ${error.message} (scripts/ensure-debian-packages.sh installs it)`)),
    );
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
    child.stdin.end(input);
  });
}

/**
 * RFC 4287's two Schematron rules (Appendix B), which jing does not check: an atom:feed without
 * an atom:author needs one in every atom:entry (4.1.1), an atom:entry needs an atom:author unless
 * its feed or its atom:source has one, and an atom:entry without atom:content needs a link with
 * rel="alternate" or no rel (4.1.2). Prints one line per failure.
 */
const SCHEMATRON_RULES = `
import sys
import xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as error:
    sys.exit(print(f"not well-formed: {error}"))
feed_author = root.tag == A + "feed" and root.find(A + "author") is not None
entries = root.findall(A + "entry") if root.tag == A + "feed" else [root]
if root.tag == A + "feed" and not feed_author and any(e.find(A + "author") is None for e in entries):
    print("4.1.1: an atom:feed must have an atom:author unless all of its atom:entry children have an atom:author")
for n, e in enumerate(entries, 1):
    if e.find(A + "author") is None and not feed_author and e.find(A + "source/" + A + "author") is None:
        print(f"4.1.2: atom:entry {n} must have an atom:author if its feed does not")
    links = [l for l in e.findall(A + "link") if l.get("rel") in (None, "alternate")]
    if not links and e.find(A + "content") is None:
        print(f"4.1.2: atom:entry {n} must have an atom:link with rel 'alternate' or an atom:content")
`;

/**
 * Whether an Atom document is valid by RFC 4287: its RELAX NG schema (Appendix B, run by jing)
 * and the two Schematron rules jing ignores. `errors` holds jing's report and the rules' failures.
 */
export async function validateAtom(xml: string): Promise<{ valid: boolean; errors: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blog-api-atom-'));
  try {
    const file = path.join(dir, 'feed.atom');
    fs.writeFileSync(file, xml, 'utf8');
    const [jing, rules] = await Promise.all([
      run('jing', ['-c', ATOM_SCHEMA, file]),
      run(DEBIAN_PYTHON, ['-c', SCHEMATRON_RULES, file]),
    ]);
    if (rules.code !== 0 && rules.stdout === '') throw new Error(`Schematron check failed: ${rules.stderr}`);
    // jing reports on stdout; its Debian wrapper warns on stderr about optional jars it lacks.
    const jingErrors = jing.code === 0 ? '' : jing.stdout.trim() || jing.stderr.trim();
    const errors = [jingErrors, rules.stdout.trim()].filter((part) => part !== '').join('\n');
    return { valid: errors === '', errors };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface FeedparserEntry {
  id: string | null;
  title: string | null;
  link: string | null;
  summary: string | null;
  /** The first content's value. */
  content: string | null;
  published: string | null;
  updated: string | null;
  author: string | null;
  tags: string[];
}

export interface FeedparserResult {
  /** True when feedparser found the document ill-formed (it then parses it loosely all the same). */
  bozo: boolean;
  bozoException: string | null;
  /** 'rss20', 'atom10', ... or '' when it recognised no format. */
  version: string;
  feed: { title: string | null; link: string | null; updated: string | null };
  entries: FeedparserEntry[];
}

/**
 * The feed as feedparser reads it, given the response's Content-Type. Debian's feedparser 6.0.10
 * reads RSS and Atom; it has no JSON Feed parser (a JSON Feed comes back bozo, with no entries).
 */
export async function parseWithFeedparser(body: Buffer, contentType: string): Promise<FeedparserResult> {
  const { code, stdout, stderr } = await run(DEBIAN_PYTHON, [FEEDPARSER_CHECK, contentType], body);
  if (code !== 0) throw new Error(`feedparser-check.py exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as FeedparserResult;
}

interface RssParserCustomItem {
  /** Atom's atom:category elements, as xml2js gives them. */
  atomCategories?: Array<{ $?: { term?: string } }>;
  'dc:creator'?: string;
}

export interface RssParserItem {
  id?: string;
  guid?: string;
  title?: string;
  link?: string;
  /** RSS description, or Atom content. */
  content?: string;
  summary?: string;
  pubDate?: string;
  isoDate?: string;
  /** RSS dc:creator (or author). */
  creator?: string;
  /** Atom author's name. */
  author?: string;
  /** RSS category texts or Atom category terms. */
  categories: string[];
}

export interface RssParserFeed {
  title?: string;
  link?: string;
  items: RssParserItem[];
}

/** The feed (RSS or Atom) as rss-parser reads it; rejects what it cannot parse. */
export async function parseWithRssParser(xml: string): Promise<RssParserFeed> {
  const parser = new Parser<Record<string, never>, RssParserCustomItem>({
    // rss-parser reads RSS categories and dc:creator itself, but neither from an Atom entry.
    customFields: { item: [['category', 'atomCategories', { keepArray: true }], 'dc:creator'] },
  });
  const feed = await parser.parseString(xml);
  return {
    title: feed.title,
    link: feed.link,
    items: feed.items.map((item) => ({
      id: (item as { id?: string }).id,
      guid: item.guid,
      title: item.title,
      link: item.link,
      content: item.content,
      summary: item.summary,
      pubDate: item.pubDate,
      isoDate: item.isoDate,
      creator: item.creator ?? item['dc:creator'],
      author: (item as { author?: string }).author,
      categories: ((item.categories ?? item.atomCategories ?? []) as unknown[]).map(categoryText),
    })),
  };
}

/** An RSS category is a text, or { _: text } with a domain; an Atom category is { $: { term } }. */
function categoryText(category: unknown): string {
  if (typeof category === 'string') return category;
  const element = category as { _?: string; $?: { term?: string } };
  return element.$?.term ?? element._ ?? '';
}

const C0_CONTROLS = Array.from({ length: 0x1f }, (_, i) => i + 1).filter((code) => ![0x9, 0xa, 0xd].includes(code));
const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');

/**
 * Texts that break a careless feed writer or reader: every character XML 1.0 cannot carry,
 * characters it can but which are easy to mangle, markup, and whitespace. A feed must carry each
 * as xmlSafe(text).
 */
export const AWKWARD_TEXTS: readonly string[] = [
  ...C0_CONTROLS.map((code) => `control U+${hex(code)} [${String.fromCharCode(code)}] here`),
  'delete U+007F [\u007F] here',
  'next line U+0085 [\u0085] here',
  'noncharacter U+FFFE [\uFFFE] here',
  'noncharacter U+FFFF [\uFFFF] here',
  'lone high surrogate [\uD83D] here',
  'lone low surrogate [\uDE00] here',
  'grinning face U+1F600, four bytes in UTF-8: \u{1F600}',
  // A family (ZWJ sequence), a flag (regional indicators F and R), a thumb with a skin tone.
  'emoji \u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466} \u{1F1EB}\u{1F1F7} \u{1F44D}\u{1F3FD}',
  // Arabic "hello world", Hebrew "hello world", and a RIGHT-TO-LEFT OVERRIDE ended by a POP.
  '\u0645\u0631\u062D\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 and \u05E9\u05DC\u05D5\u05DD \u05E2\u05D5\u05DC\u05DD',
  'override \u202Ecba\u202C here',
  'cdata end ]]> and <![CDATA[ inner ]]> here',
  '<script>alert(1)</script>',
  `&amp; &lt; "quotes" 'apostrophes'`,
  'tab\there, newline\nhere, carriage return\rhere, CRLF\r\nhere',
  // e + COMBINING ACUTE, n + COMBINING TILDE, a + COMBINING RING ABOVE + COMBINING DOT BELOW.
  'combining e\u0301 n\u0303 a\u030A\u0323',
];

/** Whether XML 1.0 can carry the code point (its Char production). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

/**
 * What a text must become in an XML feed, per the feeds' contract: each character XML 1.0
 * cannot carry (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF, a lone
 * surrogate) becomes U+FFFD; everything else stays as it is.
 */
export function xmlSafe(text: string): string {
  let safe = '';
  // By code point: a surrogate pair comes as one character, a lone surrogate as itself.
  for (const char of text) safe += isXmlChar(char.codePointAt(0) as number) ? char : '\uFFFD';
  return safe;
}
