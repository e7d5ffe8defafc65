import { randomBytes } from 'node:crypto';
import { PostgresSessions } from '../support/postgres-sessions';
import { describeDatabaseFault } from './database-outage-scenario';

const role = `blog_limited_${randomBytes(4).toString('hex')}`;
const password = randomBytes(12).toString('hex');

const asAdmin = async (url: string, work: (sessions: PostgresSessions) => Promise<unknown>) => {
  const sessions = await PostgresSessions.open(url);
  try {
    await work(sessions);
  } finally {
    await sessions.close();
  }
};

/**
 * PostgreSQL up but refusing new connections (too many connections, 53300): the service's role
 * reaches its connection limit (set to 0, and its sessions ended, so every request needs a new
 * connection) for 10 s. The role is the service's own: superusers are exempt from the limit.
 */
describeDatabaseFault({
  file: 'postgres-refusing',
  scenario: 'refusing connections',
  done: 'role connection limit 0 and its sessions ended (53300 too many connections) for 10 s, then lifted',
  unreachable: true,
  serviceUrl: async ({ url }) => {
    await asAdmin(url, async (admin) => {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      await admin.query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} OWNER TO ${role}`);
    });
    const serviceUrl = new URL(url);
    serviceUrl.username = role;
    serviceUrl.password = password;
    return serviceUrl.toString();
  },
  takeAway: ({ url }) =>
    asAdmin(url, async (admin) => {
      await admin.query(`ALTER ROLE ${role} CONNECTION LIMIT 0`);
      await admin.terminateAll();
    }),
  bringBack: ({ url }) => asAdmin(url, (admin) => admin.query(`ALTER ROLE ${role} CONNECTION LIMIT -1`)),
  cleanUp: ({ url }) =>
    asAdmin(url, async (admin) => {
      await admin.terminateAll();
      // The database and the tables its migrations created go back to the administrator.
      await admin.query(`REASSIGN OWNED BY ${role} TO CURRENT_USER`);
      await admin.query(`DROP ROLE ${role}`);
    }),
});
