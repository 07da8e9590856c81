/**
 * `npm run mcp` / `npx employer-visibility-index mcp`: the MCP server over stdio.
 * Reads a local build (`--dist DIR`, or EVI_DIST, default `dist`) through the same
 * handler as the Node server, or forwards to a deployed API (`--url https://...`, or
 * EVI_API_URL). Nothing but MCP messages goes to stdout.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createHandler } from '../api/index.ts';
import type { Handler } from '../api/index.ts';
import { FsStore } from '../server/fs-store.ts';
import { createMcpServer } from './server.ts';

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

const remote = option('url') ?? process.env.EVI_API_URL;
let handle: Handler;
let origin: string;
if (remote) {
  const base = new URL(remote);
  origin = base.origin;
  // The tools build URLs on the remote origin; each one is fetched there as it is.
  handle = (request) => fetch(new URL(new URL(request.url).pathname + new URL(request.url).search, base), { headers: { accept: 'application/json' } });
} else {
  const dist = resolve(option('dist') ?? process.env.EVI_DIST ?? 'dist');
  if (!existsSync(join(dist, 'views', 'meta.json'))) {
    process.stderr.write(`No built site in ${dist} (views/meta.json missing). Run \`npm run build\`, or pass --url https://<deployed site>.\n`);
    process.exit(1);
  }
  handle = createHandler(new FsStore(dist), { log: (line) => process.stderr.write(`${line}\n`) });
  origin = 'http://localhost';
}

const server = createMcpServer(handle, origin);
await server.connect(new StdioServerTransport());
process.stderr.write(`Employer Visibility Index MCP server on stdio (${remote ? `API at ${remote}` : 'local build'})\n`);
