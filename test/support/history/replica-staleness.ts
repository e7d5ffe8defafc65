/**
 * How far behind its primary a read in the topology may be. Reads go to synchronous standbys only
 * (deploy/haproxy/haproxy-db.cfg, /sync): each has flushed every acknowledged commit, and
 * replays it unless a query on it conflicts; `max_standby_streaming_delay` (1 s,
 * deploy/patroni/patroni.yml) bounds that wait before the query is cancelled. Half a second more
 * for replaying what was held back on a shared 2-core machine. Two reads of one client may be
 * served by the two standbys, so a later read may miss what an earlier one showed this soon
 * after it; never later.
 */
export const TOPOLOGY_READ_STALENESS_MS = 1_500;
