/**
 * The command `npm run serve` runs (package.json's `serve` script), as the program and
 * arguments to spawn: so that bench:serve and the tests start the Node server exactly as
 * an operator does, its Node flags included, from the one place they are written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @example
 * const [program, args] = serveCommand(root); // [process.execPath, ['--no-memory-reducer', '--import', 'tsx', 'src/adapters/node/main.ts']]
 */
export function serveCommand(root: string): [string, string[]] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const script = scripts.serve;
  if (!script) throw new Error('package.json has no "serve" script');
  const [program, ...args] = script.trim().split(/\s+/);
  // A plain command line (no shell syntax) that starts with `node`: anything else this
  // helper would run differently from npm, so it says so instead.
  if (program !== 'node' || args.some((a) => /["'$`|&;<>()\\*?]/.test(a))) throw new Error(`package.json's "serve" script is not a plain \`node ...\` command: ${script}`);
  return [process.execPath, args];
}
