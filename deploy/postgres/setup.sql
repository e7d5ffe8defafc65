-- Roles and database of the topology, run once on the new primary as the superuser.
-- Placeholders in double braces are filled in at `up` (passwords are random hex, made at `up`).

-- The service's role: owns its database, nothing more.
CREATE ROLE blog LOGIN PASSWORD '{{APP_PASSWORD}}';
CREATE DATABASE blog OWNER blog ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;

-- The service asks for these two limits as connection startup parameters, which PgBouncer
-- refuses (it ignores them, see pgbouncer.ini). Set on the role, every server session of the
-- service applies them whatever pooler sits between: the same values as
-- src/infrastructure/persistence/typeorm/postgres-limits.ts. The replicas have them too: roles
-- are part of the replicated catalog. (Patroni made the replication role at bootstrap.)
ALTER ROLE blog SET statement_timeout = '{{STATEMENT_TIMEOUT_MS}}ms';
ALTER ROLE blog SET idle_in_transaction_session_timeout = '{{IDLE_IN_TRANSACTION_MS}}ms';
