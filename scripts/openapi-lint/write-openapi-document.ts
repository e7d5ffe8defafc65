/**
 * Writes the OpenAPI document the service serves to the file named by its argument, without
 * starting a server, for Spectral (`npm run lint`): every optional part on, storage in memory.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildFullOpenApiDocument } from '../openapi-document/full-openapi-document';

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
  writeFileSync(file, `${JSON.stringify(await buildFullOpenApiDocument(), null, 2)}\n`);
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
