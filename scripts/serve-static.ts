/**
 * `npm run serve:static`: a built `dist/` as a plain static host serves it, with no function:
 * `serve-handler` reading the build's own `serve.json`. Added here, as Cloudflare Pages does:
 * a missing path under `/api` gets the build's JSON `api/404.html`, not the site's HTML 404.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import handler from 'serve-handler';
import { listenErrorLine } from '../src/adapters/node/listen-error.ts';

interface ServeConfig {
  headers?: { source: string; headers: { key: string; value: string }[] }[];
  [option: string]: unknown;
}

const dist = resolve(process.env.DIST_DIR ?? 'dist');
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST?.trim() || '127.0.0.1';
const configFile = join(dist, 'serve.json');
if (!existsSync(configFile)) {
  console.error(`No built site in ${dist} (serve.json missing). Run \`npm run build\` first.`);
  process.exit(1);
}
const config = { ...(JSON.parse(readFileSync(configFile, 'utf8')) as ServeConfig), public: dist };
// What a build for a static host writes as the JSON 404 of /api (absent when the function answers /api).
const apiNotFound = join(dist, 'api', '404.html');
const apiHeaders = Object.fromEntries((config.headers ?? []).find((h) => h.source === 'api/**')?.headers.map((h) => [h.key, h.value]) ?? []);

const underApi = (absolutePath: string): boolean => {
  const path = relative(dist, absolutePath);
  return path === 'api' || path.startsWith(`api${sep}`);
};

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  await handler(request, response, config, {
    sendError: async (absolutePath = '', _res, _acceptsJson, _current, _handlers, _config, spec?: { statusCode: number }) => {
      if (spec?.statusCode === 404 && underApi(absolutePath) && existsSync(apiNotFound)) {
        const body = readFileSync(apiNotFound);
        response.writeHead(404, { ...apiHeaders, 'Content-Length': String(body.length) });
        response.end(request.method === 'HEAD' ? undefined : body);
        return;
      }
      // Anything else: serve-handler answers as serve does.
      await handler(request, response, config);
    },
  });
}

const server = createServer((request, response) => {
  serve(request, response).catch(() => {
    if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('internal error');
  });
});
server.on('error', (error: NodeJS.ErrnoException) => {
  console.error(listenErrorLine(error, host, port, 'serve:static'));
  process.exit(1);
});
server.listen(port, host, () => console.log(`Serving ${dist} as a static host at http://${host.includes(':') ? `[${host}]` : host}:${port}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
