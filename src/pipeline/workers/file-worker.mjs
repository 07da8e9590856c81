// Worker entry of file-queue.ts, plain JavaScript so it starts at once: writes files and makes
// hard links, a batch per message, answering each with its id (and the first error, if any).
import { copyFileSync, linkSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

parentPort.on('message', ({ id, ops }) => {
  try {
    // op: [file, bytes] writes the file; [file, null, source] links (or copies) source there.
    for (const [file, content, source] of ops) {
      if (content !== null) {
        writeFileSync(file, content);
        continue;
      }
      try {
        linkSync(source, file);
      } catch (e) {
        if (e.code !== 'EXDEV' && e.code !== 'EPERM') throw e;
        copyFileSync(source, file);
      }
    }
    parentPort.postMessage({ id });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
