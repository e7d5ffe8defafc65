// Validates the OpenAPI document on stdin against the official 3.1 schema; prints the result
// as JSON. A separate process, because the validator is an ES module that Jest cannot load.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ version: validator.version, valid: result.valid, errors: result.errors ?? [] }));
