/**
 * `npm run --silent mcp` in a clone (`--silent` keeps npm's banner off stdout): the MCP server
 * over stdio. It answers from a local built site (`--dist`, `EVI_DIST` or `DIST_DIR`, default
 * `dist`) through the Node server's handler and store, or forwards every tool call to a
 * deployed API (`--url`, `EVI_API_URL`). Only protocol messages go to stdout.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createHandler } from '../../api/index.ts';
import { createMcpServer } from '../../mcp/server.ts';
import type { ApiFetch } from '../../mcp/server.ts';
import { FsStore } from './fs-store.ts';
import { NODE_HANDLER_OPTIONS } from './index.ts';

const USAGE = `Usage: employer-visibility-index mcp [--dist DIR | --url BASE_URL]

Runs the MCP server (Model Context Protocol) over stdio.
  --dist DIR      a built site to answer from (default: $EVI_DIST, $DIST_DIR or ./dist)
  --url BASE_URL  a deployed site to forward to, e.g. https://example.org (default: $EVI_API_URL)
`;

export interface McpCliOptions {
  dist: string | null;
  url: string | null;
}

/** Parses the arguments after `mcp`; throws with a message on a bad one. */
export function parseMcpArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): McpCliOptions {
  let dist: string | null = null;
  let url: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--dist') dist = value();
    else if (flag === '--url') url = value();
    else throw new Error(`unknown argument "${arg}"`);
  }
  if (dist !== null && url !== null) throw new Error('give --dist or --url, not both');
  if (dist === null && url === null) {
    url = env.EVI_API_URL?.trim() || null;
    if (url === null) dist = env.EVI_DIST?.trim() || env.DIST_DIR?.trim() || 'dist';
  }
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`"${url}" is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${url}" is not an http(s) URL`);
    // The site's base; an API base (…/api or …/api/v1) is accepted too.
    url = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/api(\/v1)?$/, '')}`;
  }
  return { dist, url };
}

/** Starts the stdio server; resolves once it is connected. */
export async function runMcp(argv: readonly string[]): Promise<void> {
  let options: McpCliOptions;
  try {
    options = parseMcpArgs(argv);
  } catch (error) {
    process.stderr.write(`employer-visibility-index mcp: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  let api: ApiFetch;
  let baseUrl: string | undefined;
  if (options.url !== null) {
    api = (request) => {
      request.headers.set('user-agent', 'employer-visibility-index-mcp');
      return fetch(request);
    };
    baseUrl = options.url;
    process.stderr.write(`MCP server (stdio) forwarding to ${baseUrl}/api/v1\n`);
  } else {
    const dist = resolve(options.dist ?? 'dist');
    if (!existsSync(join(dist, 'views', 'meta.json'))) {
      process.stderr.write(`No built site in ${dist} (views/meta.json missing). Run \`npm run build\` first, or give --url.\n`);
      process.exit(1);
    }
    api = createHandler(new FsStore(dist), { log: (line) => process.stderr.write(`${line}\n`), ...NODE_HANDLER_OPTIONS });
    process.stderr.write(`MCP server (stdio) answering from ${dist}\n`);
  }
  const server = createMcpServer(api, { baseUrl });
  await server.connect(new StdioServerTransport());
}

/** The command line: `mcp` is the only command for now. */
export async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'mcp') return runMcp(rest);
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  process.stderr.write(command ? `Unknown command "${command}".\n\n${USAGE}` : USAGE);
  process.exit(2);
}
