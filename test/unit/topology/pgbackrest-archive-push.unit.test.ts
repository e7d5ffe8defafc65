import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../../deploy/pgbackrest/pgbackrest-archive-push.sh');

/**
 * The topology's archive_command (ADR 0057) run as PostgreSQL runs it, in a data folder, with a
 * stand-in `pgbackrest` that exits with the status the test gives it.
 */
function archive(segment: string, pgbackrestStatus: number, histories: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'archive-push-'));
  try {
    const data = path.join(dir, 'data');
    fs.mkdirSync(path.join(data, 'pg_wal'), { recursive: true });
    for (const history of histories) fs.writeFileSync(path.join(data, 'pg_wal', history), '');
    fs.writeFileSync(path.join(data, 'pg_wal', segment), '');
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'pgbackrest'), `#!/bin/sh\necho "pgbackrest $*" >&2\nexit ${pgbackrestStatus}\n`, {
      mode: 0o755,
    });
    const run = spawnSync('bash', [SCRIPT, `pg_wal/${segment}`], {
      cwd: data,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    });
    return { status: run.status, stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("pgbackrest-archive-push.sh (the topology nodes' archive_command)", () => {
  it('archives through pgBackRest and answers its status', () => {
    const pushed = archive('0000000A0000000000000020', 0, ['00000009.history', '0000000A.history']);
    expect(pushed).toEqual({
      status: 0,
      stderr: 'pgbackrest --stanza=blog archive-push pg_wal/0000000A0000000000000020\n',
    });
    expect(archive('0000000A0000000000000020', 82, ['0000000A.history']).status).toBe(82);
  });

  it('counts a segment of a timeline the node left, refused as a duplicate (45), as archived, and says so', () => {
    const left = archive('00000002000000000000000A', 45, ['00000002.history', '00000009.history', '0000000A.history']);
    expect(left.status).toBe(0);
    expect(left.stderr).toContain(
      '00000002000000000000000A is of a timeline this node left (it is on 0000000A); the repository',
    );
    expect(archive('000000010000000000000008.partial', 45, ['00000002.history']).status).toBe(0);
  });

  it("keeps the refusal of a segment of the node's own timeline, or of a node that never changed timeline", () => {
    expect(archive('0000000A0000000000000020', 45, ['00000009.history', '0000000A.history']).status).toBe(45);
    expect(archive('000000010000000000000003', 45, []).status).toBe(45);
  });
});
