import { createHash } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { openDataSource } from '../src/infrastructure/persistence/typeorm/data-source';
import { TypeOrmKeyRepository } from '../src/infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { BENCH_TOKEN } from './http-client';

/**
 * Stores a writer's key whose token is the bench's own (`--key`): the service, run without
 * API_TOKEN, then reads every request's token as that key, on the path a key takes (its cache,
 * its author on each create), while a compared build keeps reading it as API_TOKEN.
 */
export async function storeBenchKey(databaseUrl: string): Promise<void> {
  const dataSource = await openDataSource({ kind: 'postgres', url: databaseUrl });
  try {
    await new TypeOrmKeyRepository(dataSource).create({
      id: createId(),
      tokenHash: createHash('sha256').update(BENCH_TOKEN, 'utf8').digest('hex'),
      prefix: BENCH_TOKEN.slice(0, 12),
      role: 'author',
      authorName: 'Bench',
      createdAt: new Date(),
      expiresAt: null,
    });
  } finally {
    await dataSource.destroy();
  }
}
