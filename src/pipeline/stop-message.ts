/** What `npm run build` prints when a build stops for another reason than the data: no stack unless EVI_DEBUG=1. */
import { FrozenMonthError } from './release/ledger.ts';
import { BuildStopped } from './release/output-lock.ts';

const SYSTEM: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  EMFILE: 'too many open files',
};

/** The lines to print for a build that stopped with `e`. */
export function stopMessage(e: unknown, debug: boolean): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const stack = debug && err.stack ? `\n${err.stack}` : '';
  if (err instanceof FrozenMonthError) return `Build stopped by the release ledger; the output folder was not touched.\n${err.message}${stack}`;
  if (err instanceof BuildStopped) return `Build stopped: ${err.message}${stack}`;
  const code = (err as NodeJS.ErrnoException).code;
  const what = code && SYSTEM[code] ? `${SYSTEM[code]} (${err.message.replace(/^Error: /, '')})` : err.message.replace(/^(Error: )+/, '');
  return `Build failed; the output folder was not touched: ${what}${debug ? stack : ' (EVI_DEBUG=1 prints the stack trace)'}`;
}
