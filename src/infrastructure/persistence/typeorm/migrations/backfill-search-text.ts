import type { QueryRunner } from 'typeorm';
import { searchableTextOf } from '../../../../domain';

/** Articles folded per batch: bounded memory and statement size whatever the table holds. */
const BATCH = 1_000;

interface Row {
  id: number;
  title: string | null;
  description: string;
  content: string;
}

/**
 * Fills the folded copies (search_title, search_description, search_content) of every existing
 * article, in batches by id, folding in JavaScript with the service's own function: SQL's
 * `lower()` equals `toLowerCase()` only on ASCII (PostgreSQL's follows the server's locale).
 * `update` sets the columns from parameter 1, a JSON array of [id, title, description, content].
 */
export async function backfillSearchText(queryRunner: QueryRunner, param: (n: number) => string, update: string) {
  for (let after = 0; ; ) {
    const rows: Row[] = await queryRunner.query(
      `SELECT id, title, description, content FROM articles WHERE id > ${param(1)} ORDER BY id LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    const folded = rows.map((row) => {
      const text = searchableTextOf(row);
      return [row.id, text.title ?? null, text.description, text.content];
    });
    await queryRunner.query(update, [JSON.stringify(folded)]);
    after = (rows[rows.length - 1] as Row).id;
  }
}
