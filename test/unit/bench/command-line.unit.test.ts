import { HelpRequested, UsageError } from '../../../bench/command-line';
import { COMMANDS, parseProfileOptions, parseRestoreOptions, parseSeedOptions } from '../../../bench/commands';
import { parseCommandLine, TOOL_USAGE } from '../../../bench/dispatch';
import { HTTP_USAGE, parseOptions } from '../../../bench/options';

/** What `fn` threw, for the assertions on its class, message and usage. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('npm run bench -- <subcommand>: which subcommand runs', () => {
  it('lists every subcommand, one line each, on --help', () => {
    const help = thrown(() => parseCommandLine(['--help']));
    expect(help).toBeInstanceOf(HelpRequested);
    expect((help as HelpRequested).usage).toBe(TOOL_USAGE);
    for (const command of COMMANDS) expect(TOOL_USAGE).toMatch(new RegExp(`^  ${command.name} +\\S`, 'm'));
  });

  it('refuses an unknown subcommand, with the list of subcommands as the usage', () => {
    const error = thrown(() => parseCommandLine(['frobnicate']));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('unknown subcommand frobnicate');
    expect((error as UsageError).usage).toBe(TOOL_USAGE);
  });

  it('runs http with no subcommand or a leading flag, as before there were subcommands', () => {
    expect(parseCommandLine([]).command.name).toBe('http');
    expect(parseCommandLine(['--no-sqlite', '--quick']).command.name).toBe('http');
    expect(parseCommandLine(['seed']).command.name).toBe('seed');
  });

  it("answers a subcommand's --help with that subcommand's usage", () => {
    for (const command of COMMANDS) {
      const help = thrown(() => parseCommandLine([command.name, '--help']));
      expect(help).toBeInstanceOf(HelpRequested);
      expect((help as HelpRequested).usage).toBe(command.usage);
      expect(command.usage).toContain(`npm run bench -- ${command.name}`);
    }
  });
});

describe('the options of each subcommand', () => {
  it('keeps the defaults of the positional arguments they replace', () => {
    expect(parseSeedOptions([])).toEqual({ articles: 100_000, kinds: ['postgres', 'sqlite'] });
    expect(parseProfileOptions([])).toEqual({
      scenario: 'get',
      seconds: 10,
      storage: 'postgres',
      key: false,
      stackFloor: null,
    });
    expect(parseRestoreOptions([])).toEqual({ articles: 100_000, seed: 'api', instances: 2 });
    expect(parseRestoreOptions(['--seed', 'sql', '--instances', '1'])).toMatchObject({ seed: 'sql', instances: 1 });
    expect(parseSeedOptions(['--articles', '1000', '--kinds', 'sqlite'])).toEqual({
      articles: 1000,
      kinds: ['sqlite'],
    });
  });

  it.each([
    [['seed', '--articles', 'x'], '--articles: "x" is not a positive integer'],
    [['seed', '--kinds', 'postgres,mysql'], '--kinds: "mysql" is not one of postgres, sqlite'],
    [['seed', '100000'], 'unexpected argument 100000'],
    [['explain', '--articles'], "option '--articles <value>' argument missing"],
    [['profile', '--storage', 'disk'], '--storage: "disk" is not one of postgres, sqlite'],
    [['profile', '--storage', 'sqlite', '--key'], '--key needs --storage postgres'],
    [['restore', '--seed', 'csv'], '--seed: "csv" is not one of api, sql'],
    [['profile-summary'], 'expected a .cpuprofile file'],
    [['report', 'a.json', 'b.json'], 'unexpected argument b.json'],
    [['pages', '--workers', '2'], 'unknown option --workers'],
    [['topology', '--no-sqlite'], 'unknown option --no-sqlite'],
    [['--rounds', '0'], '--rounds: "0" is not a positive integer'],
    [
      ['--scenarios', 'get,gett'],
      '--scenarios: "gett" is not one of get, get-bearer, list, page, list-304, create, create-ids, create-tags, create-key, replay, update',
    ],
    [
      ['pages', '--scenarios', 'get'],
      expect.stringMatching(/^--scenarios: "get" is not one of page, page-tag, .*full-list/),
    ],
    [['profile', '--scenario', 'page-tag'], expect.stringMatching(/^--scenario: "page-tag" is not one of get, /)],
  ])('refuses %j in one line: %s', (argv, message) => {
    const error = thrown(() => parseCommandLine(argv));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toEqual(message);
    expect((error as UsageError).message).not.toContain('\n');
  });

  it("refuses an unknown flag in any subcommand, with that subcommand's usage", () => {
    for (const command of COMMANDS) {
      const error = thrown(() => parseCommandLine([command.name, '--frobnicate']));
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toMatch(/^unknown option '?--frobnicate'?$/);
      expect((error as UsageError).usage).toBe(command.usage);
    }
  });

  it("keeps http's defaults, and a later flag wins over --quick", () => {
    expect(parseOptions([])).toMatchObject({ rounds: 3, durationSeconds: 10, warmupSeconds: 3, connections: 32 });
    expect(parseOptions(['--quick', '--rounds', '5'])).toMatchObject({ rounds: 5, durationSeconds: 3 });
    expect(parseOptions(['--rounds', '5', '--quick'])).toMatchObject({ rounds: 1 });
    const help = thrown(() => parseOptions(['--help']));
    expect((help as HelpRequested).usage).toBe(HTTP_USAGE);
  });
});
