import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Account } from './accounts';

export const E2E_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** `PERKDESK_BIN`, else the release build that `./scripts/test` makes. */
export function binaryPath(): string {
  const configured = process.env.PERKDESK_BIN;
  const bin = configured ? path.resolve(configured) : path.resolve(E2E_DIR, '../target/release/perkdesk');
  if (!existsSync(bin)) {
    throw new Error(`No perkdesk binary at ${bin}: run \`cargo build --release\` in the repository, or set PERKDESK_BIN.`);
  }
  return bin;
}

/** The inherited environment without PERKDESK_* settings, so a developer's shell cannot change what is tested. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('PERKDESK_')));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface AdminSpec {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}

/**
 * One `perkdesk serve` on a temporary database and a free loopback port. It is
 * stopped by its pid (SIGTERM, then SIGKILL if it does not exit), also when
 * the test process ends early.
 */
export class PerkdeskServer {
  readonly bin = binaryPath();
  readonly dir = mkdtempSync(path.join(tmpdir(), 'perkdesk-e2e-'));
  readonly dbPath: string;
  baseUrl = '';
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private output: string[] = [];
  private readonly killOnExit = () => {
    if (this.child?.pid && this.child.exitCode === null) process.kill(this.child.pid, 'SIGKILL');
  };

  /**
   * `dbPath` serves an existing database (a measurement against a large one) instead of a new one
   * in the temporary folder; it is left where it is when the server stops. The test suite never
   * passes it. `serveArgs` are added to `serve`'s flags.
   */
  constructor(options: { dbPath?: string; serveArgs?: readonly string[] } = {}) {
    this.dbPath = options.dbPath ? path.resolve(options.dbPath) : path.join(this.dir, 'e2e.db');
    this.serveArgs = options.serveArgs ?? [];
  }

  /** Further flags of `perkdesk serve` for this file's server only (the webhooks test's private targets and quick retries). */
  private readonly serveArgs: readonly string[];

  /** The last lines the server logged (for failure messages). */
  log(): string {
    return this.output.slice(-60).join('');
  }

  /**
   * Waits until the server's log holds the password-reset link it wrote for
   * `email` (without SMTP the link goes to the log, for the operator to pass
   * on) and returns its path and query.
   */
  async resetLinkFor(email: string, timeout = 10_000): Promise<string> {
    const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`password of ${escaped}\\.[\\s\\S]*?(https?://\\S+/auth/reset-password\\?token=\\S+)`, 'g');
    const deadline = Date.now() + timeout;
    for (;;) {
      // The latest link, should there be several.
      const link = [...this.output.join('').matchAll(pattern)].at(-1)?.[1];
      if (link) return new URL(link).pathname + new URL(link).search;
      if (Date.now() > deadline) throw new Error(`no reset link for ${email} in the server log:\n${this.log()}`);
      await sleep(50);
    }
  }

  async start(): Promise<void> {
    process.on('exit', this.killOnExit);
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const outcome = await this.spawnOn(port);
      if (outcome === 'ready') return;
      // It exited: another process may have taken the port between the probe and the bind.
      if (attempt >= 3) throw new Error(`perkdesk serve exited with ${this.child?.exitCode}:\n${this.log()}`);
    }
  }

  private async spawnOn(port: number): Promise<'ready' | 'exited'> {
    const bind = `127.0.0.1:${port}`;
    const child = spawn(this.bin, ['serve', '--db', this.dbPath, '--bind', bind, ...this.serveArgs], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.output = [];
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 500) this.output.splice(0, this.output.length - 500);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));

    this.baseUrl = `http://${bind}`;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) return 'exited';
      try {
        const response = await fetch(`${this.baseUrl}/api/health`);
        if (response.ok) return 'ready';
      } catch {
        // Not listening yet.
      }
      await sleep(50);
    }
    const log = this.log();
    await this.stop();
    throw new Error(`perkdesk serve did not answer GET /api/health within 20 s:\n${log}`);
  }

  /** `perkdesk create-admin` with the password on standard input; the TOTP secret comes from the printed URI. */
  createAdmin(spec: AdminSpec): Account {
    const result = spawnSync(
      this.bin,
      ['create-admin', '--db', this.dbPath, '--email', spec.email, '--first-name', spec.firstName, '--last-name', spec.lastName, '--password-stdin'],
      { input: `${spec.password}\n`, env: cleanEnv(), encoding: 'utf8', timeout: 30_000 },
    );
    if (result.status !== 0) {
      throw new Error(`perkdesk create-admin failed (${result.status}): ${result.stderr || result.stdout}`);
    }
    const uri = /otpauth:\/\/\S+/.exec(result.stdout)?.[0];
    if (!uri) throw new Error(`perkdesk create-admin printed no otpauth:// URI:\n${result.stdout}`);
    return new Account(spec.email, spec.password, spec.firstName, spec.lastName, uri);
  }

  /** Stops the server by its pid and removes the temporary folder (with the database, unless it was given). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      const stopped = await Promise.race([this.exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!stopped) {
        process.kill(child.pid, 'SIGKILL');
        await this.exited;
      }
    }
    process.removeListener('exit', this.killOnExit);
    this.child = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
