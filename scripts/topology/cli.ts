import { defaultStateDir, settingsFromEnv } from './settings';
import { describeComponent } from './state';
import { down, status, up } from './topology';

const USAGE = `Usage: npm run topology -- up | status | down

up      starts PostgreSQL 15 (primary and streaming replica), PgBouncer, INSTANCES service
        instances and HAProxy on TOPOLOGY_PORT, prints "<kind> <pid> <port>" per component and
        LB_URL=..., and returns once HAProxy answers /ready with 200
status  prints the same lines for what is running
down    stops everything and removes the state directory

Environment: TOPOLOGY_DIR (default ${defaultStateDir()}), TOPOLOGY_PORT (8080), INSTANCES (2),
PG_POOL_SIZE (10), API_TOKEN (passed to the instances when set), LOG_LEVEL (warn).`;

async function main(command: string | undefined): Promise<number> {
  const settings = settingsFromEnv(process.env);
  switch (command) {
    case 'up': {
      // Interrupted while starting: stop what was started rather than leave it running.
      process.once('SIGINT', () => {
        console.error('interrupted: stopping what was started');
        void down(settings.stateDir).finally(() => process.exit(130));
      });
      const state = await up(settings);
      for (const component of state.components) console.log(describeComponent(component));
      console.log(`LB_URL=${state.lbUrl}`);
      return 0;
    }
    case 'status': {
      const found = status(settings.stateDir);
      if (!found) {
        console.error(`no topology in ${settings.stateDir}`);
        return 1;
      }
      for (const component of found.running) console.log(describeComponent(component));
      for (const component of found.stopped) console.error(`stopped: ${describeComponent(component)}`);
      console.log(`LB_URL=${found.state.lbUrl}`);
      return found.stopped.length === 0 ? 0 : 1;
    }
    case 'down':
      await down(settings.stateDir);
      return 0;
    default:
      console.error(USAGE);
      return command === undefined || command === '--help' ? 0 : 2;
  }
}

main(process.argv[2]).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(`topology: ${error.message}`);
    process.exitCode = 1;
  },
);
