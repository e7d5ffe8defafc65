import fs from 'node:fs';
import { archiveFiles } from '../../scripts/topology/pgbackrest';
import { lsnBytes } from '../../scripts/topology/postgres';

/** PostgreSQL's WAL segment size here (initdb's default). */
const SEGMENT_BYTES = 16 * 1024 * 1024;

/** What the pgBackRest repository's archive holds, by timeline. */
export interface WalArchive {
  /** Whole segments' numbers by timeline (a `.partial`, an old timeline's unfinished last segment, is not one). */
  readonly segments: ReadonlyMap<number, readonly number[]>;
  /** Each timeline's history file: the timeline it forked from and the segment it forked in. */
  readonly forks: ReadonlyMap<number, { parent: number; segment: number }>;
}

/** Reads the archive's file names (`<timeline><log><seg>-<sha1>.lz4`) and its `.history` files. */
export function readWalArchive(postgresDir: string): WalArchive {
  const segments = new Map<number, number[]>();
  const forks = new Map<number, { parent: number; segment: number }>();
  for (const file of archiveFiles(postgresDir)) {
    const history = file.name.match(/^([0-9A-F]{8})\.history$/);
    if (history?.[1]) forks.set(Number.parseInt(history[1], 16), lastFork(fs.readFileSync(file.path, 'utf8')));
    // A whole segment: its 24-character name, then its checksum (a `.partial` has its suffix between).
    if (/^[0-9A-F]{24}-/.test(file.name)) {
      const timeline = Number.parseInt(file.name.slice(0, 8), 16);
      segments.set(timeline, [...(segments.get(timeline) ?? []), segmentOfWalFile(file.name.slice(0, 24))]);
    }
  }
  for (const numbers of segments.values()) numbers.sort((a, b) => a - b);
  return { segments, forks };
}

/** A WAL file name's segment number (`<timeline><log><seg>`: 256 segments of 16 MiB a log). */
export function segmentOfWalFile(name: string): number {
  return Number.parseInt(name.slice(8, 16), 16) * 0x100 + Number.parseInt(name.slice(16, 24), 16);
}

/**
 * What breaks the archive's continuity across `timeline`'s fork, one line each (none when whole):
 * its history file missing, a segment missing on the parent timeline before the fork, the new
 * timeline not starting in the segment where it forked, or a segment missing on it after.
 * A restore replays the parent's segments up to the fork, then the new timeline's from there on.
 */
export function gapsAcrossFork(archive: WalArchive, timeline: number): string[] {
  const fork = archive.forks.get(timeline);
  if (!fork) return [`no history file for timeline ${timeline}`];
  const parent = archive.segments.get(fork.parent) ?? [];
  const child = archive.segments.get(timeline) ?? [];
  const problems = [
    ...missing(parent, parent[0] ?? fork.segment, fork.segment - 1).map((s) => `timeline ${fork.parent} lacks ${s}`),
    ...missing(child, fork.segment, child.at(-1) ?? fork.segment).map((s) => `timeline ${timeline} lacks ${s}`),
  ];
  if (parent.length === 0) problems.unshift(`timeline ${fork.parent} has no segment`);
  return problems;
}

/** The numbers from `from` to `to` (both included) that `present` lacks. */
function missing(present: readonly number[], from: number, to: number): number[] {
  const have = new Set(present);
  const absent: number[] = [];
  for (let segment = from; segment <= to; segment++) if (!have.has(segment)) absent.push(segment);
  return absent;
}

/** A history file's last line, `<parent>\t<X/Y>\t<reason>`: the fork of the timeline it describes. */
function lastFork(text: string): { parent: number; segment: number } {
  const line = text
    .split('\n')
    .filter((candidate) => /^\d+\t/.test(candidate))
    .at(-1);
  const [parent, lsn] = line?.split('\t') ?? [];
  return { parent: Number(parent), segment: Math.floor(lsnBytes(lsn ?? '0/0') / SEGMENT_BYTES) };
}
