import { HelpRequested, UsageError } from './command-line';
import { parseCommandLine } from './dispatch';
import { runMain } from './run-main';

/**
 * The benchmark tool, `npm run bench -- <subcommand> [flags]` (bench/README.md): --help prints
 * to stdout and exits 0; a command line that cannot run prints why, in one line, and the usage,
 * and exits 2; a run that fails exits 1.
 */
function main(argv: readonly string[]): void {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.usage);
      return;
    }
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}\n\n${error.usage}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  runMain(parsed.run, parsed.command.what);
}

main(process.argv.slice(2));
