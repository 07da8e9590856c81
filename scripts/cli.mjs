#!/usr/bin/env node
// `npx employer-visibility-index mcp [--dist DIR | --url URL]`: the MCP server over stdio.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [command, ...rest] = process.argv.slice(2);
if (command !== 'mcp') {
  process.stderr.write('Usage: employer-visibility-index mcp [--dist DIR | --url https://site]\n');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = createRequire(import.meta.url).resolve('tsx');
const child = spawn(process.execPath, ['--import', tsx, join(root, 'src/mcp/stdio.ts'), ...rest], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
