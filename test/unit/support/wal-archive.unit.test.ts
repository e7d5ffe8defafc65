import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gapsAcrossFork, readWalArchive, segmentOfWalFile } from '../../support/wal-archive';

/** What pgBackRest appends to a segment's name: its checksum and compression. */
const SHA = '-0123456789abcdef0123456789abcdef01234567.lz4';

/** A pgBackRest repository's archive, with these file names, under a fresh postgres folder. */
function archiveWith(files: Record<string, string>): string {
  const postgresDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-archive-'));
  const archive = path.join(postgresDir, 'pgbackrest', 'repo', 'archive', 'blog', '15-1');
  for (const [name, text] of Object.entries(files)) {
    const file = name.endsWith('.history')
      ? path.join(archive, name)
      : path.join(archive, name.slice(0, 16), `${name}${SHA}`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return postgresDir;
}

const TIMELINE_3_AT_0C = '1\t0/802A888\tno recovery target specified\n\n2\t0/C17A190\tno recovery target specified\n';

/** The restore drill trusts this to tell an archive that a restore can follow across a switchover. */
describe('the WAL archive across a timeline switch', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const read = (files: Record<string, string>) => {
    const dir = archiveWith(files);
    dirs.push(dir);
    return readWalArchive(dir);
  };

  it('reads segments by timeline (a .partial is not a whole segment) and each timeline fork from its history file', () => {
    const archive = read({
      '00000002000000000000000A': '',
      '00000002000000000000000B': '',
      '00000002000000000000000C.partial': '',
      '00000003000000000000000C': '',
      '000000030000000100000000': '',
      '00000003.history': TIMELINE_3_AT_0C,
    });
    expect(archive.segments.get(2)).toEqual([0x0a, 0x0b]);
    expect(archive.segments.get(3)).toEqual([0x0c, 0x100]);
    expect(archive.forks.get(3)).toEqual({ parent: 2, segment: 0x0c });
    expect(segmentOfWalFile('00000002000000010000000F')).toBe(0x10f);
  });

  it('finds nothing missing when the parent ends before the fork segment and the new timeline goes on from it', () => {
    const archive = read({
      '00000002000000000000000A': '',
      '00000002000000000000000B': '',
      '00000003000000000000000C': '',
      '00000003000000000000000D': '',
      '00000003.history': TIMELINE_3_AT_0C,
    });
    expect(gapsAcrossFork(archive, 3)).toEqual([]);
  });

  it('names a missing history file, a parent segment missing before the fork, and the fork segment missing after it', () => {
    expect(gapsAcrossFork(read({ '00000002000000000000000A': '' }), 3)).toEqual(['no history file for timeline 3']);
    const archive = read({
      '00000002000000000000000A': '',
      '00000003000000000000000D': '',
      '00000003.history': TIMELINE_3_AT_0C,
    });
    expect(gapsAcrossFork(archive, 3)).toEqual(['timeline 2 lacks 11', 'timeline 3 lacks 12']);
  });
});
