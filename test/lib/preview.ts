/**
 * The local deployments the npm scripts start (`npm run preview:pages`, `npm run serve:static`),
 * run as a user runs them: `PORT`, `HOST` and `DIST_DIR` in the environment, the script's own
 * process group ended at the close.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** A local deployment started by an npm script (`npm run preview:pages`), with its origin. */
export interface Preview {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Everything the script printed so far. */
  log(): string;
  /** The command's process id; it leads a process group of its own. */
  pid: number;
  /** The command's exit: its code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals | null>;
  close(): Promise<void>;
}

/** A free TCP port on the loopback interface (the preview scripts take `PORT`, not 0). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
}

/**
 * Runs `npm run <script>` with `PORT` (a free one unless given), `HOST` and `DIST_DIR` set, as a
 * user would (and `env`), and waits until `probe` answers 200 there.
 */
export async function startPreview(script: string, directory: string, probe = '/api/v1/health', port?: number, env: Record<string, string> = {}): Promise<Preview> {
  port ??= await freePort();
  return startCommand('npm', ['run', '--silent', script], { cwd: root, env: { PORT: String(port), HOST: '127.0.0.1', DIST_DIR: directory, ...env } }, port, probe);
}

/**
 * Runs a command that serves on `port` of the loopback interface, in its own process group
 * (ended on `close()`), and waits until `probe` answers 200 there.
 */
export async function startCommand(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }, port: number, probe: string): Promise<Preview> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | NodeJS.Signals | null>((ok) => child.once('exit', (code, signal) => ok(code ?? signal)));
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}${probe}`).then(
      async (r) => (await r.arrayBuffer(), r.ok),
      () => false,
    );
    if (ok) break;
    if (i > 600 || child.exitCode !== null) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not start:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, log: () => log, pid: child.pid!, exited, close: stop };
}
