import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A command line that cannot run: the one-line reason; the tool prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** `--help` was asked for: the tool prints the usage to stdout and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super('help');
  }
}

type Flags = NonNullable<ParseArgsConfig['options']>;

/** Every subcommand's --help. */
export const HELP = { help: { type: 'boolean' } } as const;

/**
 * node:util's parseArgs, strict, with at most `positionals` positional arguments; `options`
 * include HELP. Its errors become UsageErrors of one line: its messages go on with a sentence of
 * advice that the usage gives better.
 */
export function parseStrict<const O extends Flags>(
  argv: readonly string[],
  options: O,
  usage: string,
  positionals = 0,
) {
  const config = { args: [...argv], options, strict: true, allowPositionals: true } as const;
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    const sentence = (error as Error).message.split('. ')[0] as string;
    throw new UsageError(sentence.charAt(0).toLowerCase() + sentence.slice(1), usage);
  }
  if ((parsed.values as { help?: unknown }).help) throw new HelpRequested(usage);
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument ${parsed.positionals[positionals]}`, usage);
  }
  return parsed;
}

export function positiveInteger(flag: string, raw: string, usage: string): number {
  const number = Number(raw);
  if (!Number.isInteger(number) || number < 1)
    throw new UsageError(`${flag}: "${raw}" is not a positive integer`, usage);
  return number;
}

export function oneOf<const T extends string>(flag: string, raw: string, allowed: readonly T[], usage: string): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new UsageError(`${flag}: "${raw}" is not one of ${allowed.join(', ')}`, usage);
  }
  return raw as T;
}
