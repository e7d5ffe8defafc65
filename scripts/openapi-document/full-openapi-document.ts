/**
 * The OpenAPI document the service serves, built without starting a server, with every optional
 * part on (API token, rate limit, seed) so that it describes all of them; storage in memory.
 * Spectral lints it (`npm run lint`) and the typed client is generated from it (`npm run openapi:client`).
 */
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createOpenApiDocument } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';

export async function buildFullOpenApiDocument(): Promise<object> {
  const config = loadConfig({
    DATABASE_URL: 'memory:',
    API_TOKEN: 'documented-token',
    RATE_LIMIT_PER_MINUTE: '60',
    SEED_ENABLED: 'true',
    LOG_LEVEL: 'silent',
  });
  const container = await buildContainer(config);
  try {
    return createOpenApiDocument(container);
  } finally {
    await closeContainer(container);
  }
}
