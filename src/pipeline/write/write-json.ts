import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { noteOwnChanges } from '../cache/own-changes.ts';
import type { FileQueue } from '../workers/file-queue.ts';
import { linkFile } from '../workers/link-file.mjs';

const utf8 = new TextEncoder();

/**
 * Writes files under one folder, counting files and bytes: the only writer of the JSON tree.
 * Synchronous on purpose: quicker than fs/promises for many small files.
 */
export class JsonWriter {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();

  /** `queue`: files written on a worker thread (file-queue.ts), on disk once it is flushed. */
  constructor(
    readonly root: string,
    private readonly queue: FileQueue | null = null,
  ) {}

  write(path: string, value: unknown): void {
    this.writeText(path, JSON.stringify(value));
  }

  writeText(path: string, text: string): void {
    if (!this.queue) return this.writeBytes(path, Buffer.from(text));
    // Bytes of their own, transferred to the queue's worker.
    const bytes = utf8.encode(text);
    this.files++;
    this.bytes += bytes.byteLength;
    this.queue.write(this.#target(path), bytes, true);
  }

  /** Puts an existing (cached) file at `path`: a hard link (files are never written in place), else a copy. */
  linkFrom(path: string, source: string, bytes: number): void {
    const full = this.#target(path);
    if (this.queue) this.queue.link(full, source);
    else {
      const move = linkFile(source, full);
      if (move) noteOwnChanges([move]);
    }
    this.files++;
    this.bytes += bytes;
  }

  /** Counts a file that another thread wrote under this folder (the month jobs). */
  count(bytes: number): void {
    this.files++;
    this.bytes += bytes;
  }

  writeBytes(path: string, buf: Uint8Array): void {
    const full = this.#target(path);
    this.files++;
    this.bytes += buf.length;
    if (this.queue) this.queue.write(full, buf);
    else writeFileSync(full, buf);
  }

  /** The file for `path`, its folder made once. */
  #target(path: string): string {
    const full = join(this.root, path);
    const dir = dirname(full);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return full;
  }
}
