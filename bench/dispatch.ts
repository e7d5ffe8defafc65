import { HelpRequested, UsageError } from './command-line';
import { COMMANDS, type Command } from './commands';

const HTTP = COMMANDS.find((command) => command.name === 'http') as Command;
const WIDEST = Math.max(...COMMANDS.map((command) => command.name.length));

export const TOOL_USAGE = `npm run bench -- <subcommand> [flags]; npm run bench -- <subcommand> --help for its flags.

${COMMANDS.map((command) => `  ${command.name.padEnd(WIDEST)}  ${command.summary}`).join('\n')}

With no subcommand, or a flag first, it is http: \`npm run bench -- --no-sqlite\` runs
\`npm run bench -- http --no-sqlite\`. Figures go to bench/results/; bench/README.md tells more.`;

/**
 * The subcommand a command line names, and the work its flags ask for. A leading flag (or
 * nothing) means http, so that the commands written before there were subcommands still run.
 * Throws HelpRequested or UsageError, with the usage to print.
 */
export function parseCommandLine(argv: readonly string[]): { command: Command; run: () => Promise<void> } {
  const [first] = argv;
  if (first === '--help' || first === '-h' || first === 'help') throw new HelpRequested(TOOL_USAGE);
  if (first === undefined || first.startsWith('-')) return { command: HTTP, run: HTTP.parse(argv) };
  const command = COMMANDS.find((candidate) => candidate.name === first);
  if (!command) throw new UsageError(`unknown subcommand ${first}`, TOOL_USAGE);
  return { command, run: command.parse(argv.slice(1)) };
}
