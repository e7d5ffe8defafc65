import type { MigrationInterface, QueryRunner } from 'typeorm';
import { withMigrationSession } from '../postgres-online';
import { PREVIOUS_RELEASE_TRIGGER } from './1795700000000-publishing';

/** The update half of the previous release's trigger, beside the insert half (which keeps the name). */
export const PREVIOUS_RELEASE_UPDATE_TRIGGER = `${PREVIOUS_RELEASE_TRIGGER}_on_update`;

/**
 * The function's own conditions (publishing migration), evaluated by PostgreSQL before calling
 * it: an insert without a slug, or visible without published_at; an update that changes visible
 * and leaves published_at. Only the previous release writes such rows.
 */
const ON_INSERT = 'NEW.slug IS NULL OR (NEW.published_at IS NULL AND NEW.visible)';
const ON_UPDATE = 'NEW.visible IS DISTINCT FROM OLD.visible AND NEW.published_at IS NOT DISTINCT FROM OLD.published_at';

/**
 * The previous release's trigger called its PL/pgSQL function for every insert and update of
 * articles, this release's included, where it changes nothing; its `SET enable_seqscan` makes
 * each call save and restore a setting. That was a tenth of what PostgreSQL could insert
 * (issue 39: a create's statement, pgbench, 2,165 against 2,419 a second without the trigger).
 * Split in two with WHEN conditions, it fires for the previous release's writes alone, the
 * same function doing the same. Dropping and creating triggers takes a strong lock on articles
 * for an instant: online, behind lock_timeout, retried.
 */
export class PreviousReleaseTriggerWhenPostgres1796100000000 implements MigrationInterface {
  name = 'PreviousReleaseTriggerWhenPostgres1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await withMigrationSession(queryRunner, this.name, (session) =>
      session.transaction(
        async (runner) => {
          await dropBoth(runner);
          await runner.query(
            `CREATE TRIGGER ${PREVIOUS_RELEASE_TRIGGER} BEFORE INSERT ON articles
               FOR EACH ROW WHEN (${ON_INSERT}) EXECUTE FUNCTION ${PREVIOUS_RELEASE_TRIGGER}()`,
          );
          await runner.query(
            `CREATE TRIGGER ${PREVIOUS_RELEASE_UPDATE_TRIGGER} BEFORE UPDATE ON articles
               FOR EACH ROW WHEN (${ON_UPDATE}) EXECUTE FUNCTION ${PREVIOUS_RELEASE_TRIGGER}()`,
          );
        },
        { blocksWritesOn: 'articles' },
      ),
    );
  }

  /** In the caller's transaction: the one trigger of before. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await dropBoth(queryRunner);
    await queryRunner.query(
      `CREATE TRIGGER ${PREVIOUS_RELEASE_TRIGGER} BEFORE INSERT OR UPDATE ON articles
         FOR EACH ROW EXECUTE FUNCTION ${PREVIOUS_RELEASE_TRIGGER}()`,
    );
  }
}

async function dropBoth(runner: QueryRunner): Promise<void> {
  await runner.query(`DROP TRIGGER IF EXISTS ${PREVIOUS_RELEASE_UPDATE_TRIGGER} ON articles`);
  await runner.query(`DROP TRIGGER IF EXISTS ${PREVIOUS_RELEASE_TRIGGER} ON articles`);
}
