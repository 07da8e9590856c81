/**
 * The request log's writer: lines are joined and written once per turn of the event loop (or
 * when 64 KiB wait), not one `write` per request. Unlike sonic-boom, it writes through
 * `process.stdout`, so the server's other lines stay in order.
 */
export interface LineWriter {
  write(line: string): void;
  /** Writes what is waiting now (on close). */
  flush(): void;
}

/**
 * @example
 * const log = bufferedLines(process.stdout);
 * log.write('GET /api/v1 200 0.3ms');
 */
export function bufferedLines(stream: { write(text: string): unknown }, maxPending = 64 * 1024): LineWriter {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    stream.write(text);
  };
  return {
    write(line) {
      pending += `${line}\n`;
      if (pending.length >= maxPending) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
