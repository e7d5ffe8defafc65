/**
 * Writes the OpenAPI document the service serves to the file named by its argument, without
 * starting a server, for Spectral (`npm run lint`). Configured with every optional part on (API
 * token, rate limit, seed), so that the linted document has all of them; storage in memory.
 */
import { writeFileSync } from 'node:fs';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createOpenApiDocument } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';

async function main(file: string | undefined): Promise<void> {
  if (!file) throw new Error('usage: write-openapi-document <output file>');
  const config = loadConfig({
    DATABASE_URL: 'memory:',
    API_TOKEN: 'documented-token',
    RATE_LIMIT_PER_MINUTE: '60',
    SEED_ENABLED: 'true',
    LOG_LEVEL: 'silent',
  });
  const container = await buildContainer(config);
  try {
    writeFileSync(file, `${JSON.stringify(createOpenApiDocument(container), null, 2)}\n`);
  } finally {
    await closeContainer(container);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
