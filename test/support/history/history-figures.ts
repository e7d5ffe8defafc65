import type { RequestRecord } from '../load/request-log';

/**
 * How much of a history the checker had to go on: clients, creates, updates and deletes, and
 * reads that showed something. A test prints it beside the anomalies, and may bound it, since
 * no anomaly in an empty history proves nothing.
 */
export function historyFigures(history: readonly RequestRecord[]) {
  const figures = { clients: 0, creates: 0, writes: 0, reads: 0 };
  const clients = new Set<string>();
  for (const record of history) {
    if (record.client !== undefined) clients.add(record.client);
    const kind = record.facts?.kind;
    if (kind === 'create') figures.creates++;
    else if (kind === 'update' || kind === 'delete') figures.writes++;
    else if (record.facts?.kind === 'read' && record.facts.observed) figures.reads++;
  }
  figures.clients = clients.size;
  return figures;
}
