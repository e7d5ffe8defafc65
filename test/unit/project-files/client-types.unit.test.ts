import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../../scripts/openapi-client/client-types';

const ROOT = path.resolve(__dirname, '../../..');

/**
 * The typed client's types are generated from the OpenAPI document and committed, so that the
 * client test compiles without a generation step. A change to the document must regenerate them,
 * or the client test checks a document that is gone.
 */
describe("the typed client's generated types", () => {
  it('are what the OpenAPI document generates now (else run `npm run openapi:client` and commit them)', async () => {
    const fresh = await generateClientTypes(ROOT);
    const committed = fs.readFileSync(path.join(ROOT, CLIENT_TYPES_FILE), 'utf8');
    if (committed !== fresh) {
      throw new Error(
        `${CLIENT_TYPES_FILE} is stale: run \`npm run openapi:client\` and commit it.\n` +
          `The first line that differs: ${firstDifference(committed, fresh)}`,
      );
    }
  });
});

/** The first differing line of two texts, numbered, as committed and as generated. */
function firstDifference(committed: string, fresh: string): string {
  const before = committed.split('\n');
  const after = fresh.split('\n');
  const index = before.findIndex((line, i) => line !== after[i]);
  const at = index < 0 ? before.length : index;
  return `line ${at + 1}\n  committed: ${before[at] ?? '(end)'}\n  generated: ${after[at] ?? '(end)'}`;
}
