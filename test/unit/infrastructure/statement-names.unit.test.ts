import { articleStatements } from '../../../src/infrastructure/persistence/typeorm/article-statements';
import { idempotencyStatements } from '../../../src/infrastructure/persistence/typeorm/idempotency-statements';
import { keyStatements } from '../../../src/infrastructure/persistence/typeorm/key-repository/key-statements';
import { POSTGRES_DIALECT } from '../../../src/infrastructure/persistence/typeorm/sql-dialect';
import type { FilterShape } from '../../../src/infrastructure/persistence/typeorm/visible-articles-filter';

/** PostgreSQL cuts a prepared statement's name at 63 bytes: two names cut alike would be one statement. */
const NAME_LIMIT = 63;

function everyShape(): FilterShape[] {
  const shapes: FilterShape[] = [];
  for (const order of ['id', 'newest', 'newest-after'] as const)
    for (const tag of [false, true])
      for (const category of [false, true])
        for (const author of [false, true])
          for (const featured of [false, true])
            for (const search of ['none', 'indexed', 'scan', 'probe'] as const)
              shapes.push({ order, tag, category, author, featured, search });
  return shapes;
}

describe('the repository statements prepared on PostgreSQL', () => {
  it('have names of at most 63 characters, each its own', () => {
    const sql = articleStatements(POSTGRES_DIALECT);
    const names: string[] = [];
    for (const shape of everyShape()) {
      const page = sql.pageOfVisible(shape);
      const stream = sql.streamOfVisible(shape);
      names.push(page.name, stream.name, sql.declareStream(stream).name);
    }
    for (const value of [
      ...Object.values(sql),
      ...Object.values(idempotencyStatements(POSTGRES_DIALECT)),
      ...Object.values(keyStatements(POSTGRES_DIALECT)),
    ]) {
      if (value && typeof value === 'object' && 'name' in value) names.push(value.name as string);
    }
    const tooLong = names.filter((name) => Buffer.byteLength(name) > NAME_LIMIT);
    expect(tooLong).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });
});
