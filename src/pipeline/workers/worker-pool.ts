/**
 * The parser workers: worker threads taking one month at a time (a month in flight per
 * worker bounds memory), each with a heap cap that follows the largest month.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { MonthJob, MonthOutcome } from '../read/parse-month.ts';
import { execArgvWithoutLoaders, workerBundle, type Packages } from './worker-bundle.ts';

/** The build's default number of worker threads: one per core, up to 4 (each holds its own heap). */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(availableParallelism(), 4));
}

/**
 * A worker's heap cap, since left alone a worker's heap grows far past what it holds live.
 * It follows the largest month's CSV size (the gzip trailer's ISIZE), with a floor.
 */
export function workerHeapMb(paths: string[]): number {
  let largest = 0;
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const head = Buffer.alloc(2);
      const tail = Buffer.alloc(4);
      readSync(fd, head, 0, 2, 0);
      const gzip = head[0] === 0x1f && head[1] === 0x8b && size >= 18;
      if (gzip) readSync(fd, tail, 0, 4, size - 4);
      largest = Math.max(largest, gzip ? tail.readUInt32LE(0) : size);
    } finally {
      closeSync(fd);
    }
  }
  return Math.max(768, Math.ceil((8 * largest) / 1048576));
}

/**
 * A worker thread running `script`, a TypeScript module of this folder: from its bundle
 * (worker-bundle.ts) when there is one, else through ts-worker.mjs, which registers tsx and
 * imports the module named by the last item of `process.argv`.
 */
export function tsWorker(script: string, options: WorkerOptions = {}, { bundle = true, packages = 'bundle' }: { bundle?: boolean; packages?: Packages } = {}): Worker {
  const url = new URL(script, import.meta.url);
  const bundled = bundle ? workerBundle(fileURLToPath(url), packages) : null;
  if (bundled) return new Worker(bundled, { execArgv: execArgvWithoutLoaders(), ...options });
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { ...options, argv: [url.href] });
}

/**
 * Worker threads taking one job at a time (one month in flight per worker bounds memory):
 * the parser workers by default, or the month jobs with their own script and limits.
 */
export class WorkerPool<J = MonthJob, R = MonthOutcome> {
  private idle: Worker[] = [];
  private all: Worker[] = [];
  private queue: { job: J; transfer: ArrayBuffer[]; resolve: (p: R) => void; reject: (e: Error) => void }[] = [];
  private busy = new Map<Worker, { resolve: (p: R) => void; reject: (e: Error) => void }>();

  constructor(
    size: number,
    heapMb: number,
    script = './parse-worker.ts',
    more: { workerData?: unknown; youngGenerationMb?: number } = {},
  ) {
    for (let i = 0; i < size; i++) {
      const resourceLimits = { maxOldGenerationSizeMb: heapMb, ...(more.youngGenerationMb ? { maxYoungGenerationSizeMb: more.youngGenerationMb } : {}) };
      const w = tsWorker(script, { resourceLimits, workerData: more.workerData });
      w.on('message', (msg: { parsed?: R; error?: string }) => {
        const p = this.busy.get(w);
        // One answer a job: another is a fault of the worker script.
        if (!p) throw new Error(`${script}: an answer with no job in flight (${msg.error ?? 'a result'})`);
        this.busy.delete(w);
        this.idle.push(w);
        this.pump();
        if (msg.error) p.reject(new Error(msg.error));
        else p.resolve(msg.parsed!);
      });
      w.on('error', (e) => {
        this.busy.get(w)?.reject(e);
        this.busy.delete(w);
      });
      this.all.push(w);
      this.idle.push(w);
    }
  }

/** The limits its threads were started with. */
  get resourceLimits(): Worker['resourceLimits'] {
    return this.all[0]?.resourceLimits;
  }

  /** How many worker threads the pool has. */
  get size(): number {
    return this.all.length;
  }

  /** Runs `job` on the next free worker; `transfer`'s buffers are moved, not copied. */
  run(job: J, transfer: ArrayBuffer[] = []): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, transfer, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.pop()!;
      const { job, transfer, resolve, reject } = this.queue.shift()!;
      this.busy.set(w, { resolve, reject });
      w.postMessage(job, transfer);
    }
  }

  async close() {
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
