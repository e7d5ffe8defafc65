import type { DataSource } from 'typeorm';
import type { SqlDatabaseConfig } from '../../src/infrastructure/config/config';
import { openDataSource } from '../../src/infrastructure/persistence/typeorm/data-source';
import { createPostgresDatabase, createSqliteFile } from '../support/test-databases';

/** An index and its first column: an index serves lookups by its leading column. */
interface IndexLead {
  table: string;
  index: string;
  leadingColumn: string;
  definition: string;
}

interface ForeignKey {
  table: string;
  column: string;
}

const LINK_TABLES = ['article_tags', 'article_categories'];

async function postgresCatalog(dataSource: DataSource): Promise<{ indexes: IndexLead[]; foreignKeys: ForeignKey[] }> {
  const indexes: IndexLead[] = await dataSource.query(`
    SELECT t.relname AS "table", i.relname AS "index", a.attname AS "leadingColumn",
           pg_get_indexdef(x.indexrelid) AS "definition"
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
     WHERE t.relnamespace = 'public'::regnamespace`);
  const foreignKeys: ForeignKey[] = await dataSource.query(`
    SELECT t.relname AS "table", a.attname AS "column"
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (c.conkey)
     WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace`);
  return { indexes, foreignKeys };
}

async function sqliteCatalog(dataSource: DataSource): Promise<{ indexes: IndexLead[]; foreignKeys: ForeignKey[] }> {
  const indexes: IndexLead[] = [];
  const foreignKeys: ForeignKey[] = [];
  for (const table of ['articles', ...LINK_TABLES]) {
    for (const { name } of await dataSource.query(`PRAGMA index_list(${table})`)) {
      const [lead] = await dataSource.query(`PRAGMA index_info("${name}")`);
      const [entry] = await dataSource.query(`SELECT sql FROM sqlite_master WHERE name = ?`, [name]);
      // Indexes SQLite makes for a PRIMARY KEY have no SQL text; their columns are the key's.
      indexes.push({
        table,
        index: name,
        leadingColumn: lead.name,
        definition: entry?.sql ?? `primary key of ${table}`,
      });
    }
    for (const { from } of await dataSource.query(`PRAGMA foreign_key_list(${table})`)) {
      foreignKeys.push({ table, column: from });
    }
  }
  return { indexes, foreignKeys };
}

describe.each([
  [
    'PostgreSQL',
    async (): Promise<[SqlDatabaseConfig, () => Promise<void>]> => {
      const database = await createPostgresDatabase();
      return [{ kind: 'postgres', url: database.url }, database.drop];
    },
    postgresCatalog,
  ],
  [
    'SQLite',
    async (): Promise<[SqlDatabaseConfig, () => Promise<void>]> => {
      const file = createSqliteFile();
      return [{ kind: 'sqlite', path: file.path }, async () => file.remove()];
    },
    sqliteCatalog,
  ],
])('the migrated schema on %s has the indexes the queries need', (_name, open, readCatalog) => {
  let dataSource: DataSource;
  let remove: () => Promise<void>;
  let catalog: { indexes: IndexLead[]; foreignKeys: ForeignKey[] };

  beforeAll(async () => {
    const [database, cleanUp] = await open();
    remove = cleanUp;
    dataSource = await openDataSource(database);
    catalog = await readCatalog(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await remove();
  });

  it('an index led by every foreign key column of the link tables', () => {
    const linkKeys = catalog.foreignKeys.filter((key) => LINK_TABLES.includes(key.table));
    // article_id and the term column, in each of the two link tables.
    expect(linkKeys).toHaveLength(4);
    for (const key of linkKeys) {
      const serving = catalog.indexes.filter(
        (index) => index.table === key.table && index.leadingColumn === key.column,
      );
      expect({ key, serving: serving.length > 0 }).toEqual({ key, serving: true });
    }
  });

  it('a partial index on the visible articles, by id, for the visible list', () => {
    const visible = catalog.indexes.filter(
      (index) =>
        index.table === 'articles' && index.leadingColumn === 'id' && /WHERE\s*\(?visible\)?/i.test(index.definition),
    );
    expect(visible).toHaveLength(1);
  });
});
