/**
 * `npm run preview:nginx`: the self-hosted deployment in one command: the Node server on a
 * free loopback port (one trusted proxy) and nginx in front of it on PORT of HOST, with
 * deploy/nginx.conf rendered into a temporary folder. Ctrl-C or SIGTERM stops both.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { startServer } from '../src/adapters/node/index.ts';
import { listenErrorLine } from '../src/adapters/node/listen-error.ts';
import { integerFromEnv, rateLimitFromEnv } from '../src/adapters/node/env.ts';
import { NGINX_BINARY, prepareNginx } from '../src/adapters/node/nginx.ts';

const dist = resolve(process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(dist, 'views', 'meta.json'))) {
  console.error(`No built site in ${dist} (views/meta.json missing). Run \`npm run build\` first.`);
  process.exit(1);
}
const nginxBinary = existsSync(NGINX_BINARY) ? NGINX_BINARY : 'nginx';
const port = integerFromEnv('PORT', 8080);
const host = process.env.HOST?.trim() || '127.0.0.1';
const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

// The address nginx is to listen on, checked first, so another server there is never taken for it.
await new Promise<void>((done) => {
  const probe = createServer();
  probe.once('error', (error: NodeJS.ErrnoException) => {
    console.error(listenErrorLine(error, host, port, 'preview:nginx'));
    process.exit(1);
  });
  probe.listen(port, host, () => probe.close(() => done()));
});

const node = await startServer({ distDir: dist, port: 0, host: '127.0.0.1', rateLimitPerMinute: rateLimitFromEnv(), trustProxy: 1 });
const folder = prepareNginx({ listen: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`, dist, upstream: new URL(node.url).host });
const nginx = spawn(nginxBinary, folder.args, { stdio: ['ignore', 'inherit', 'inherit'] });
let spawnError: Error | null = null;
const nginxExit = new Promise<void>((done) => {
  nginx.once('exit', () => done());
  nginx.once('error', (error) => {
    spawnError = error;
    done();
  });
});

// Whatever ends this process, nginx and the folder do not outlive it.
process.on('exit', () => {
  if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGKILL');
  rmSync(folder.prefix, { recursive: true, force: true });
});
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

let stopping = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  // SIGQUIT: nginx finishes the requests under way, then exits.
  if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGQUIT');
  const late = setTimeout(() => nginx.kill('SIGKILL'), 5000);
  await nginxExit;
  clearTimeout(late);
  await node.close(1000);
  process.exit(code);
}

void nginxExit.then(() => {
  if (stopping) return;
  if (spawnError) {
    console.error(`Cannot start ${nginxBinary}: ${spawnError.message} (install nginx, e.g. apt-get install nginx-light).`);
    return stop(1);
  }
  // nginx has said why on stderr.
  console.error(`nginx stopped (exit ${nginx.exitCode ?? nginx.signalCode})`);
  return stop(1);
});
// npm may not pass SIGTERM on: a parent gone is a stop too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && !stopping) {
    console.log('The command that started this preview has ended: stopping nginx and the Node server');
    void stop(0);
  }
}, 250).unref();
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    console.log(`${signal}: stopping nginx and the Node server`);
    void stop(0);
  });
}

const answers = () =>
  fetch(`${origin}/api/v1/health`).then(
    async (r) => (await r.arrayBuffer(), r.ok),
    () => false,
  );
// Ready once nginx has written its pid (it does so after binding its port) and answers the API through the Node server.
for (let i = 0; !stopping; i++) {
  if (existsSync(join(folder.prefix, 'nginx.pid')) && (await answers())) {
    console.log(`nginx at ${origin} (API at ${origin}/api/v1), in front of the Node server at ${node.url}; serving ${dist} with ${folder.conf}`);
    break;
  }
  if (i === 100) {
    console.error(`nginx does not answer at ${origin}; its error log: ${folder.errorLog}`);
    await stop(1);
  }
  await new Promise((r) => setTimeout(r, 100));
}
