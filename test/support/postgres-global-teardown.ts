import { stopEmbeddedPostgres } from './postgres-global-setup';

export default async function teardown(): Promise<void> {
  await stopEmbeddedPostgres();
}
