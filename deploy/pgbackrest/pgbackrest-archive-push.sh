#!/bin/bash
# archive_command of a node of the topology (deploy/patroni/patroni.yml, "%p"): pgBackRest's
# archive-push, but for one refusal. A node that died as primary rejoins through Patroni's crash
# recovery (which drops the segments' archive status) and pg_rewind, keeping segments of the
# timeline it left; once it leads again PostgreSQL archives them anew. Where the repository holds
# another copy of one (the same records, another unused tail), pgBackRest refuses it (error 45)
# every time, and PostgreSQL's archiver, retrying its oldest segment first, archives nothing
# after it. A refused segment of a timeline older than the node's own is in the repository
# already: it counts as archived, with a line in the log. On the node's own timeline a refusal
# stands (two primaries wrote it).
wal=$1
pgbackrest --stanza=blog archive-push "$wal"
status=$?
[ "$status" -eq 45 ] || exit "$status"
segment=$(basename "$wal")
# The node's timeline: its newest history file (the archiver runs in the data folder).
own=$(ls pg_wal | grep -E '^[0-9A-F]{8}\.history$' | sort | tail -n 1 | cut -c 1-8)
if [[ -n $own && $segment =~ ^[0-9A-F]{8} ]] && (( 16#${segment:0:8} < 16#$own )); then
  echo "pgbackrest-archive-push.sh: $segment is of a timeline this node left (it is on $own); the repository's copy stands" >&2
  exit 0
fi
exit "$status"
