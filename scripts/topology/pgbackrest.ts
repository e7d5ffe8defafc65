import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { PostgresPaths } from './postgres';
import type { RunAs } from './processes';
import type { DatabaseNode } from './state';
import { renderTemplate } from './templates';

/** pgBackRest's stanza: Patroni's scope, one cluster. */
export const STANZA = 'blog';

/** The repository and pgBackRest's own folders, beside the nodes' data (the postgres user writes them). */
export function backupDirs(postgresDir: string): { repo: string; log: string; lock: string } {
  const root = path.join(postgresDir, 'pgbackrest');
  return { repo: path.join(root, 'repo'), log: path.join(root, 'log'), lock: path.join(root, 'lock') };
}

export const pgBackRestConfigOf = (postgresDir: string, node: DatabaseNode) =>
  path.join(postgresDir, `${node.name}.pgbackrest.conf`);

/** Creates the repository's folders, owned by the postgres user: it archives and backs up. */
export function createRepository(paths: PostgresPaths): void {
  for (const dir of Object.values(backupDirs(paths.postgresDir))) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (paths.runAs) fs.chownSync(dir, paths.runAs.uid, paths.runAs.gid);
  }
  if (paths.runAs) fs.chownSync(path.dirname(backupDirs(paths.postgresDir).repo), paths.runAs.uid, paths.runAs.gid);
}

/** Writes the node's pgBackRest config (deploy/pgbackrest/pgbackrest.conf); answers its path. */
export function writePgBackRestConfig(paths: PostgresPaths, node: DatabaseNode): string {
  const dirs = backupDirs(paths.postgresDir);
  const config = pgBackRestConfigOf(paths.postgresDir, node);
  fs.writeFileSync(
    config,
    renderTemplate(paths.repoRoot, 'pgbackrest/pgbackrest.conf', {
      REPO_DIR: dirs.repo,
      LOG_DIR: dirs.log,
      LOCK_DIR: dirs.lock,
      DATA_DIR: node.dataDir,
      PG_PORT: node.pgPort,
      SOCKET_DIR: paths.postgresDir,
    }),
    { mode: 0o600 },
  );
  if (paths.runAs) fs.chownSync(config, paths.runAs.uid, paths.runAs.gid);
  return config;
}

/**
 * The nodes' archive_command (deploy/pgbackrest/pgbackrest-archive-push.sh), copied where the postgres user
 * runs it; its path.
 */
export function installArchivePush(paths: PostgresPaths): string {
  const script = path.join(paths.postgresDir, 'pgbackrest-archive-push.sh');
  fs.copyFileSync(path.join(paths.repoRoot, 'deploy', 'pgbackrest', 'pgbackrest-archive-push.sh'), script);
  fs.chmodSync(script, 0o755);
  if (paths.runAs) fs.chownSync(script, paths.runAs.uid, paths.runAs.gid);
  return script;
}

/**
 * Runs one pgBackRest command with `node`'s config, as the postgres user (it reads the data
 * folder and connects over the socket with peer authentication). Answers its stdout; a failure
 * throws with pgBackRest's own message.
 */
export function pgBackRest(
  postgresDir: string,
  runAs: RunAs | undefined,
  node: DatabaseNode,
  args: readonly string[],
): string {
  try {
    return execFileSync(
      'pgbackrest',
      [`--config=${pgBackRestConfigOf(postgresDir, node)}`, `--stanza=${STANZA}`, ...args],
      {
        cwd: postgresDir,
        env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(runAs && { uid: runAs.uid, gid: runAs.gid }),
      },
    ).toString();
  } catch (error) {
    const failure = error as { stderr?: Buffer; stdout?: Buffer; message: string };
    const said = `${failure.stderr?.toString() ?? ''}${failure.stdout?.toString() ?? ''}`.trim();
    throw new Error(`pgbackrest ${args.join(' ')} failed: ${said || failure.message}`);
  }
}

export type BackupType = 'full' | 'diff' | 'incr';

/** One backup set in the repository, as `pgbackrest info` describes it. */
export interface BackupSet {
  readonly label: string;
  readonly type: BackupType;
  readonly startedAt: Date;
  /** When the backup ended: a restore can reach any time from here on. */
  readonly endedAt: Date;
  /** The database as restored from it: every file of the cluster, in bytes. */
  readonly databaseBytes: number;
  /** What the backup itself stored in the repository, compressed (an incremental one: its changed files only). */
  readonly repositoryBytes: number;
}

/** The backups in the repository, oldest first (an empty list before the first one). */
export function backupSets(postgresDir: string, runAs: RunAs | undefined, node: DatabaseNode): BackupSet[] {
  const [stanza] = JSON.parse(pgBackRest(postgresDir, runAs, node, ['--output=json', 'info'])) as {
    backup?: {
      label: string;
      type: BackupType;
      timestamp: { start: number; stop: number };
      info: { size: number; repository: { delta: number } };
    }[];
  }[];
  return (stanza?.backup ?? []).map((backup) => ({
    label: backup.label,
    type: backup.type,
    startedAt: new Date(backup.timestamp.start * 1000),
    endedAt: new Date(backup.timestamp.stop * 1000),
    databaseBytes: backup.info.size,
    repositoryBytes: backup.info.repository.delta,
  }));
}

/** One WAL segment in the repository's archive (`<segment>-<sha1>.lz4`, under the stanza's folders). */
interface ArchivedSegment {
  readonly name: string;
  readonly archivedAt: Date;
  /** Its file's size: compressed. */
  readonly bytes: number;
}

/** One file of the repository's archive: a segment, an old timeline's `.partial`, a `.history`. */
export interface ArchiveFile {
  readonly name: string;
  readonly path: string;
  readonly stat: fs.Stats;
}

/** Every file under the stanza's archive in the repository, in no order (none before the first). */
export function archiveFiles(postgresDir: string): ArchiveFile[] {
  const found: ArchiveFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else found.push({ name: entry.name, path: file, stat: fs.statSync(file) });
    }
  };
  const archive = path.join(backupDirs(postgresDir).repo, 'archive', STANZA);
  if (fs.existsSync(archive)) walk(archive);
  return found;
}

/** Every WAL segment in the repository's archive, in no order. */
function archivedSegments(postgresDir: string): ArchivedSegment[] {
  return archiveFiles(postgresDir)
    .filter((file) => /^[0-9A-F]{24}/.test(file.name))
    .map((file) => ({ name: file.name.slice(0, 24), archivedAt: file.stat.mtime, bytes: file.stat.size }));
}

/** The newest WAL file in the repository's archive and when it arrived; null before the first. */
export function lastArchivedWal(postgresDir: string): { name: string; archivedAt: Date } | null {
  let newest: { name: string; archivedAt: Date } | null = null;
  for (const { name, archivedAt } of archivedSegments(postgresDir)) {
    if (!newest || archivedAt > newest.archivedAt) newest = { name, archivedAt };
  }
  return newest;
}

/** What the named segments take in the repository (compressed): what a restore reads of the archive. */
export function archivedBytesOf(postgresDir: string, names: readonly string[]): number {
  const wanted = new Set(names);
  return archivedSegments(postgresDir)
    .filter((segment) => wanted.has(segment.name))
    .reduce((sum, segment) => sum + segment.bytes, 0);
}
