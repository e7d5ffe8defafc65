import { clusterMembers } from './patroni';
import { type BackupSet, type BackupType, backupSets, lastArchivedWal, pgBackRest } from './pgbackrest';
import { postgresUserIfRoot } from './processes';
import { type DatabaseNode, nodesOf, type TopologyState } from './state';

/** The node Patroni names leader now: backups are taken from the primary, whichever it is. */
export async function primaryNode(state: TopologyState): Promise<DatabaseNode> {
  const nodes = nodesOf(state);
  const leader = (await clusterMembers(nodes)).find((member) => member.role === 'leader');
  const node = nodes.find((candidate) => candidate.name === leader?.name);
  if (!node) throw new Error('no primary to back up from');
  return node;
}

/**
 * At the cluster's first start: the stanza (pgBackRest checks the primary's archiving works)
 * and a full backup, so that a restore and a rebuilt replica have something to start from.
 */
export async function createStanzaAndFirstBackup(state: TopologyState): Promise<BackupSet> {
  const primary = await primaryNode(state);
  pgBackRest(state.postgresDir, postgresUserIfRoot(), primary, ['stanza-create']);
  return takeBackup(state, 'full');
}

/** A backup of the primary (pgBackRest makes an incremental one a full one when there is none yet); answers its set. */
export async function takeBackup(state: TopologyState, type: BackupType): Promise<BackupSet> {
  const primary = await primaryNode(state);
  const runAs = postgresUserIfRoot();
  pgBackRest(state.postgresDir, runAs, primary, [`--type=${type}`, 'backup']);
  const newest = backupSets(state.postgresDir, runAs, primary).at(-1);
  if (!newest) throw new Error('pgbackrest backup succeeded but lists no backup');
  return newest;
}

/** The backups in the repository, oldest first; any node's config reads the same repository. */
export function listBackups(state: TopologyState): BackupSet[] {
  const [node] = nodesOf(state);
  if (!node) return [];
  return backupSets(state.postgresDir, postgresUserIfRoot(), node);
}

/** `backup <label> <type> <end>` per backup, then `wal <segment> archived <age> s ago` (status). */
export function backupLines(state: TopologyState, now = new Date()): string[] {
  const lines = listBackups(state).map((set) => `backup ${set.label} ${set.type} ${set.endedAt.toISOString()}`);
  const wal = lastArchivedWal(state.postgresDir);
  lines.push(
    wal
      ? `wal ${wal.name} archived ${((now.getTime() - wal.archivedAt.getTime()) / 1000).toFixed(1)} s ago`
      : 'wal none archived',
  );
  return lines;
}
