/**
 * How an assistant connects to the MCP server, in the words /api-docs/, /llms.txt and
 * /llms-full.txt use: the hosted Streamable HTTP endpoint first; for a client that only
 * runs local (stdio) servers, the command as it runs from a clone of the repository (the
 * package is not published, so `npx` would not find it).
 */
import { MCP_PATH, MCP_SERVER_NAME } from '../mcp/server.ts';

export interface McpConnect {
  endpoint: string;
  intro: string;
  remote: string;
  localNote: string;
  localCommand: string;
  configNote: string;
  config: string;
}

export function mcpConnect(siteUrl: string): McpConnect {
  const endpoint = `${siteUrl}${MCP_PATH}`;
  const args = ['run', '--silent', '--prefix', '/path/to/clone', 'mcp', '--', '--url', siteUrl];
  return {
    endpoint,
    intro: 'The same data is available to AI assistants as MCP (Model Context Protocol) tools, read-only, one per endpoint: search_companies, get_company, get_rankings, get_leaders, compare_companies, get_index, get_health, get_changelog.',
    remote: 'Assistants that connect to remote MCP servers: add a server of type Streamable HTTP (no key, no sign-in) at',
    localNote: 'Assistants that only start local (stdio) servers: clone the repository, run npm ci once in it, and let the assistant start this command in that folder; it forwards every tool call to this site.',
    localCommand: `npm run --silent mcp -- --url ${siteUrl}`,
    configNote: 'As a client configuration (the path is the folder of your clone):',
    // The arguments on one line, as a person would write them.
    config: JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { command: 'npm', args } } }, null, 2).replace(
      JSON.stringify(args, null, 2).replace(/\n/g, '\n      '),
      JSON.stringify(args).replace(/,/g, ', '),
    ),
  };
}
