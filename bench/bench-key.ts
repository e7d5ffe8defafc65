import { createId } from '@paralleldrive/cuid2';
import { KEY_RULES } from '../src/application/use-cases/create-key';
import { openDataSource } from '../src/infrastructure/persistence/typeorm/data-source';
import { TypeOrmKeyRepository } from '../src/infrastructure/persistence/typeorm/key-repository/typeorm-key-repository';
import { NodeTokenSecrets } from '../src/infrastructure/security/node-token-secrets';
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
      tokenHash: new NodeTokenSecrets().hashOf(BENCH_TOKEN),
      prefix: BENCH_TOKEN.slice(0, KEY_RULES.prefixLength),
      role: 'author',
      authorName: 'Bench',
      createdAt: new Date(),
      expiresAt: null,
    });
  } finally {
    await dataSource.destroy();
  }
}
