import type { KeyController } from './controllers/key-controller';
import { createdKeyJson, keyJson } from './key-presenters';
import { defineRoute, type RouteDefinition } from './route-definition';
import { createKeyBody, revokeKeyBody } from './validation/key-schemas';

const ADMINS_ONLY = { status: 403, when: 'the key is not an admin' } as const;
const NO_CREDENTIAL = {
  status: 401,
  when: 'no key or API token, including while neither exists (the first admin key comes from `npm run keys`)',
} as const;

/** The admins' routes that hand out, list and revoke keys. */
export function keyRouteTable(keys: KeyController): RouteDefinition[] {
  return [
    defineRoute({
      method: 'post',
      path: '/key/create',
      operationId: 'createKey',
      group: 'Keys',
      summary: 'Create a key',
      description:
        'A key for an author (found by name, or created) with a role. The answer holds its token, shown this once: ' +
        'only its SHA-256 is stored.',
      write: true,
      body: createKeyBody,
      status: 201,
      data: createdKeyJson,
      failures: [NO_CREDENTIAL, ADMINS_ONLY],
      handle: ({ body, actor }) => keys.create(body, actor),
    }),
    defineRoute({
      method: 'get',
      path: '/key',
      operationId: 'listKeys',
      group: 'Keys',
      summary: 'List the keys',
      description: 'Every key, oldest first, revoked and expired ones included; never a token.',
      write: false,
      status: 200,
      data: keyJson.array(),
      failures: [NO_CREDENTIAL, ADMINS_ONLY],
      handle: ({ actor }) => keys.list(actor),
    }),
    defineRoute({
      method: 'post',
      path: '/key/revoke',
      operationId: 'revokeKey',
      group: 'Keys',
      summary: 'Revoke a key',
      description:
        'Refused at once by this instance and within a second by every other; revoking it again keeps its first time.',
      write: true,
      body: revokeKeyBody,
      status: 200,
      data: keyJson,
      failures: [NO_CREDENTIAL, ADMINS_ONLY, { status: 404, when: 'no key has this id' }],
      handle: ({ body, actor }) => keys.revoke(body, actor),
    }),
  ];
}
