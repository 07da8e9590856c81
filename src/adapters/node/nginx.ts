/**
 * The nginx configuration of the self-hosted deployment (`deploy/nginx.conf`, a template
 * with `${EVI_...}` placeholders), rendered for given paths and addresses, and the folder
 * nginx runs from (`npm run preview:nginx`, test/nginx.test.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface NginxSettings {
  /** `port` or `address:port` nginx listens on. */
  listen: string;
  /** Absolute path of the built `dist/`. */
  dist: string;
  /** `address:port` of the Node server. */
  upstream: string;
  /** Absolute path of the proxy cache folder. */
  cache: string;
  /** Absolute path of nginx's folder for its pid, logs and temporary files. */
  prefix: string;
  /** The `user` (and group) nginx's workers run as when it is started as root; nginx's own default (nobody) when absent. */
  user?: string;
}

export const NGINX_TEMPLATE = resolve(import.meta.dirname, '../../../deploy/nginx.conf');
/** Debian's and most distributions' nginx binary. */
export const NGINX_BINARY = '/usr/sbin/nginx';

const UNSAFE = /[\s;{}'"$]/;

/**
 * @example
 * writeFileSync('nginx.conf', renderNginxConfig({ listen: '8080', dist: '/srv/evi/dist', upstream: '127.0.0.1:4321', cache: '/var/cache/evi', prefix: '/var/lib/evi-nginx' }));
 */
export function renderNginxConfig(settings: NginxSettings, template = readFileSync(NGINX_TEMPLATE, 'utf8')): string {
  const values: Record<string, string> = {
    EVI_LISTEN: settings.listen,
    EVI_DIST: settings.dist,
    EVI_UPSTREAM: settings.upstream,
    EVI_CACHE: settings.cache,
    EVI_PREFIX: settings.prefix,
  };
  for (const [name, value] of Object.entries(values)) {
    if (UNSAFE.test(value)) throw new Error(`${name} must not contain spaces, quotes, ";", "{", "}" or "$": ${JSON.stringify(value)}`);
  }
  if (settings.user !== undefined && !/^[a-z_][a-z0-9_-]*( [a-z_][a-z0-9_-]*)?$/i.test(settings.user)) throw new Error(`user must be a user name and an optional group name: ${JSON.stringify(settings.user)}`);
  // Only the placeholder lines are rewritten; comments naming the placeholders are kept.
  const lines = template
    .split('\n')
    .map((line) => (line.trimStart().startsWith('#') ? line : line.replace(/\$\{(EVI_[A-Z]+)\}/g, (whole, name: string) => values[name] ?? whole)));
  if (settings.user !== undefined) lines.splice(lines.findIndex((l) => /^\w/.test(l)), 0, `user ${settings.user};`);
  return lines.join('\n');
}

/** A rendered configuration in a folder of its own, and how to start nginx on it. */
export interface NginxFolder {
  /** The folder: nginx.conf, the pid, the logs, the proxy cache and nginx's temporary files. */
  prefix: string;
  conf: string;
  errorLog: string;
  /** nginx's arguments: this prefix and configuration, in the foreground. */
  args: string[];
}

/**
 * Renders `deploy/nginx.conf` into a new folder under the system's temporary folder. Started
 * as root, nginx's workers would drop to `nobody`, which can neither write a folder made here
 * (mode 0700) nor read a `dist/` under root's home: they run as root then, the user the Node
 * server beside them runs as. Started as a user, nginx keeps that user (no `user` line).
 */
export function prepareNginx(settings: Pick<NginxSettings, 'listen' | 'dist' | 'upstream'>): NginxFolder {
  const prefix = mkdtempSync(join(tmpdir(), 'evi-nginx-'));
  chmodSync(prefix, 0o700);
  const cache = join(prefix, 'cache');
  mkdirSync(cache);
  const conf = join(prefix, 'nginx.conf');
  const asRoot = process.getuid?.() === 0;
  writeFileSync(conf, renderNginxConfig({ ...settings, cache, prefix, ...(asRoot ? { user: 'root' } : {}) }));
  const errorLog = join(prefix, 'error.log');
  return { prefix, conf, errorLog, args: ['-p', prefix, '-c', conf, '-e', errorLog, '-g', 'daemon off;'] };
}
