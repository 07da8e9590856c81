// Worker entry of file-queue.ts, plain JavaScript so it starts at once: writes files and makes
// hard links, a batch per message, answering each with its id, the links' moves of their
// sources (link-file.mjs) and the first error, if any.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { linkFile } from './link-file.mjs';

parentPort.on('message', ({ id, ops }) => {
  const moved = [];
  try {
    // op: [file, bytes] writes the file; [file, null, source] links (or copies) source there.
    for (const [file, content, source] of ops) {
      if (content !== null) {
        writeFileSync(file, content);
        continue;
      }
      const move = linkFile(source, file);
      if (move) moved.push(move);
    }
    parentPort.postMessage({ id, moved });
  } catch (e) {
    parentPort.postMessage({ id, moved, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
