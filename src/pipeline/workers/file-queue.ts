/**
 * Files written and hard links made on a worker thread, in batches, while the build's thread
 * goes on; `flush()` waits until all are on disk. The caller (JsonWriter) makes the folders.
 */
import { Worker } from 'node:worker_threads';
import { execArgvWithoutLoaders } from './worker-bundle.ts';
import { noteOwnChanges, type OwnChange } from '../cache/own-changes.ts';

type Op = [file: string, content: Uint8Array | null, source?: string];

/** Operations per message: few enough that the worker starts early, enough that a message costs little per file. */
const BATCH = 256;
/** Bytes queued and not yet written above which `drained()` makes the caller wait (bounds memory). */
const MAX_BACKLOG = 64 * 1024 * 1024;

export class FileQueue {
  // Plain JavaScript: started without the parent's loader flags.
  readonly #worker = new Worker(new URL('./file-worker.mjs', import.meta.url), { execArgv: execArgvWithoutLoaders() });
  #batch: Op[] = [];
  #transfer: ArrayBuffer[] = [];
  #batchBytes = 0;
  /** Batches sent and not yet answered: id -> bytes. */
  readonly #pending = new Map<number, number>();
  #queuedBytes = 0;
  #next = 0;
  #error: Error | null = null;
  /** Callers waiting for the backlog to shrink, and for every batch to be written. */
  #drainers: (() => void)[] = [];
  #flushers: (() => void)[] = [];
  /** Callers waiting for the batches up to `id` (the worker writes the batches in order). */
  #marks: { id: number; wake: () => void }[] = [];

  constructor() {
    this.#worker.on('message', ({ id, moved, error }: { id: number; moved: OwnChange[]; error?: string }) => {
      noteOwnChanges(moved);
      this.#queuedBytes -= this.#pending.get(id) ?? 0;
      this.#pending.delete(id);
      if (error) this.#error ??= new Error(`writing the output: ${error}`);
      this.#settle();
    });
    this.#worker.on('error', (e) => this.#fail(e));
    this.#worker.on('exit', (code) => this.#fail(new Error(`the file worker stopped (exit code ${code})`)));
  }

  /** Writes `content` to `file`; `own`: its buffer is not used again, so it is transferred. */
  write(file: string, content: Uint8Array, own = false): void {
    if (own) this.#transfer.push(content.buffer as ArrayBuffer);
    this.#push([file, content], content.byteLength);
  }

  /** Puts a hard link to `source` at `file` (a copy across file systems). */
  link(file: string, source: string): void {
    this.#push([file, null, source], 0);
  }

  /** Resolves once the bytes queued and not yet written are under MAX_BACKLOG. */
  drained(): Promise<void> {
    return this.#queuedBytes > MAX_BACKLOG && !this.#error ? new Promise((resolve) => this.#drainers.push(resolve)) : Promise.resolve();
  }

  /** Resolves once every file handed over is on disk; rejects with the first failure. */
  async flush(): Promise<void> {
    this.#send();
    if (this.#pending.size > 0) await new Promise<void>((resolve) => this.#flushers.push(resolve));
    if (this.#error) throw this.#error;
  }

  /** Resolves once every file handed over until now is on disk; rejects with the first failure. */
  async written(): Promise<void> {
    this.#send();
    const id = this.#next - 1;
    if (this.#waiting(id)) await new Promise<void>((wake) => this.#marks.push({ id, wake }));
    if (this.#error) throw this.#error;
  }

  /** Whether a batch up to `id` is still unanswered. */
  #waiting(id: number): boolean {
    if (this.#error) return false;
    for (const p of this.#pending.keys()) if (p <= id) return true;
    return false;
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
  }

  #push(op: Op, bytes: number): void {
    if (this.#error) throw this.#error;
    this.#batch.push(op);
    this.#batchBytes += bytes;
    if (this.#batch.length >= BATCH) this.#send();
  }

  #send(): void {
    if (this.#batch.length === 0) return;
    const id = this.#next++;
    this.#pending.set(id, this.#batchBytes);
    this.#queuedBytes += this.#batchBytes;
    this.#worker.postMessage({ id, ops: this.#batch }, this.#transfer);
    this.#batch = [];
    this.#transfer = [];
    this.#batchBytes = 0;
  }

  #settle(): void {
    if (this.#queuedBytes <= MAX_BACKLOG || this.#error) for (const wake of this.#drainers.splice(0)) wake();
    if (this.#pending.size === 0 || this.#error) for (const wake of this.#flushers.splice(0)) wake();
    if (this.#marks.length) {
      const still = this.#marks.filter((m) => this.#waiting(m.id));
      for (const m of this.#marks) if (!still.includes(m)) m.wake();
      this.#marks = still;
    }
  }

  #fail(e: Error): void {
    this.#error ??= e;
    this.#pending.clear();
    this.#queuedBytes = 0;
    this.#settle();
  }
}
