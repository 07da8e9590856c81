/**
 * The nginx configuration of the self-hosted deployment (`deploy/nginx.conf`, a template
 * with `${EVI_...}` placeholders), rendered for given paths and addresses.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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
}

export const NGINX_TEMPLATE = resolve(import.meta.dirname, '../../../deploy/nginx.conf');

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
    if (/[\s;{}'"$]/.test(value)) throw new Error(`${name} must not contain spaces, quotes, ";", "{", "}" or "$": ${JSON.stringify(value)}`);
  }
  // Only the placeholder lines are rewritten; comments naming the placeholders are kept.
  return template
    .split('\n')
    .map((line) => (line.trimStart().startsWith('#') ? line : line.replace(/\$\{(EVI_[A-Z]+)\}/g, (whole, name: string) => values[name] ?? whole)))
    .join('\n');
}
