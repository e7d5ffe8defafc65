import type { RequestRecord } from '../load/request-log';
import type { OperationFacts } from './operation-facts';

/** Why a record cut at the point has no answer: it was in flight when the restored world ends. */
export const CUT_AT_POINT = 'CUT_AT_RESTORE_POINT';

/**
 * The history as a cluster restored to `point` (a wall-clock time) knows it: a record that
 * started after the point never happened there and is dropped; one in flight at the point
 * (started before, answered after) becomes an unknown outcome, as if no answer had come; one
 * answered before the point stays. Record times are performance.now() values, converted with
 * performance.timeOrigin.
 */
export function historyUpTo(records: readonly RequestRecord[], point: Date): RequestRecord[] {
  const at = point.getTime() - performance.timeOrigin;
  const kept: RequestRecord[] = [];
  for (const record of records) {
    if (record.startedAt > at) continue;
    kept.push(record.endedAt <= at ? record : unanswered(record));
  }
  return kept;
}

/**
 * The record without its answer. The checker reads a read's `observed` and a create's
 * `createdId` as the answer's content, so both go with the status: an answer that came after the
 * point showed a world the restore has undone, and must count neither as a read nor as an ack.
 */
function unanswered(record: RequestRecord): RequestRecord {
  const { message: _message, ...rest } = record;
  return { ...rest, status: null, failure: CUT_AT_POINT, facts: withoutAnswer(record.facts) };
}

function withoutAnswer(facts: OperationFacts | undefined): OperationFacts | undefined {
  if (facts?.kind === 'read') return { kind: 'read' };
  if (facts?.kind === 'create') {
    const { createdId: _createdId, ...sent } = facts;
    return sent;
  }
  return facts;
}
