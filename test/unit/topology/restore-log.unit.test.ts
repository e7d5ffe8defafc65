import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replayOf } from '../../../scripts/topology/restore';

/** Lines as PostgreSQL 15 writes them in a node's log (log_line_prefix '%m [%p] %q%u@%d '). */
const BEFORE = '2026-11-26 18:20:01.000 UTC [10001] LOG:  redo starts at 0/1000028\n';
const RESTORE = [
  // A timeline's history file is fetched too: it is not a WAL segment.
  '2026-11-26 18:28:33.380 UTC [10313] LOG:  restored log file "00000002.history" from archive',
  '2026-11-26 18:28:33.390 UTC [10313] LOG:  restored log file "000000010000000000000002" from archive',
  '2026-11-26 18:28:33.406 UTC [10313] LOG:  redo starts at 0/2000028',
  '2026-11-26 18:28:33.410 UTC [10313] LOG:  restored log file "000000010000000000000003" from archive',
  '2026-11-26 18:28:33.416 UTC [10313] LOG:  consistent recovery state reached at 0/20001B0',
  '2026-11-26 18:29:18.266 UTC [10313] LOG:  redo done at 1/A0ED9B0 system usage: CPU: user: 0.05 s, system: 0.16 s, elapsed: 44.86 s',
  '2026-11-26 18:29:18.266 UTC [10313] LOG:  last completed transaction was at log time 2026-11-26 18:29:08.810728+00',
].join('\n');

describe("a restore's figures from the restored node's log", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-log-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const logWith = (text: string) => {
    const file = path.join(dir, 'node1.log');
    fs.writeFileSync(file, text);
    return file;
  };

  it('reads the redo time, the WAL it went through and the last transaction, after the offset only', () => {
    const figures = replayOf(logWith(`${BEFORE}${RESTORE}\n`), BEFORE.length);
    expect(figures.redoMs).toBeCloseTo(44_860);
    // 1/A0ED9B0 - 0/2000028: the high half counts 4 GiB.
    expect(figures.redoBytes).toBe(2 ** 32 + 0xa0ed9b0 - 0x2000028);
    expect(figures.reached).toEqual(new Date('2026-11-26T18:29:08.810Z'));
    expect(figures.walSegments).toEqual(['000000010000000000000002', '000000010000000000000003']);
  });

  it('answers null for what the log does not say (a restore with no redo)', () => {
    expect(replayOf(logWith(BEFORE), 0)).toEqual({ reached: null, redoMs: null, redoBytes: null, walSegments: [] });
  });
});
