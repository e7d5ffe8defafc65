/** `npm run openapi:client`: writes the typed client's generated types (see client-types.ts). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_TYPES_FILE, generateClientTypes } from './client-types';

// Compiled to dist/openapi-client/scripts/openapi-client/: the repository is four folders up.
const ROOT = path.resolve(__dirname, '../../../..');

generateClientTypes(ROOT)
  .then((text) => {
    writeFileSync(path.join(ROOT, CLIENT_TYPES_FILE), text);
    console.log(`${CLIENT_TYPES_FILE}: written`);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
