/**
 * Writes the OpenAPI document the service serves to the file named by its argument, without
 * starting a server, for Spectral (`npm run lint`). Configured with every optional part on (API
 * token, rate limit, seed), so that the linted document has all of them; storage in memory.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildContainer, closeContainer } from '../../src/composition/container';
import { createOpenApiDocument } from '../../src/composition/create-app';
import { loadConfig } from '../../src/infrastructure/config/config';

const USAGE = 'usage: write-openapi-document <output file>';

/** The output file: the one argument, and no flag. */
function outputFileOf(argv: string[]): string {
  const { positionals } = parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true });
  const [file, extra] = positionals;
  if (!file) throw new TypeError('expected the output file');
  if (extra !== undefined) throw new TypeError(`unexpected argument ${extra}`);
  return file;
}

async function main(file: string): Promise<void> {
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

let file: string;
try {
  file = outputFileOf(process.argv.slice(2));
} catch (error) {
  // parseArgs' first sentence names the argument; its second gives advice the usage gives better.
  console.error(`write-openapi-document: ${(error as Error).message.split('. ')[0]}\n${USAGE}`);
  process.exit(2);
}
main(file).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
