import { stopPostgresTestServer } from './postgres-global-setup';

export default async function teardown(): Promise<void> {
  await stopPostgresTestServer();
}
