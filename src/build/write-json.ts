import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Writes files under one folder, a few at a time, counting files and bytes. The only writer of the JSON tree. */
export class JsonWriter {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();
  private pending: Promise<void>[] = [];

  constructor(private readonly root: string) {}

  write(path: string, value: unknown): Promise<void> {
    return this.writeText(path, JSON.stringify(value));
  }

  async writeText(path: string, text: string): Promise<void> {
    const full = join(this.root, path);
    const dir = dirname(full);
    if (!this.dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.dirs.add(dir);
    }
    const buf = Buffer.from(text);
    this.files++;
    this.bytes += buf.length;
    this.pending.push(writeFile(full, buf));
    if (this.pending.length >= 64) await this.flush();
  }

  async flush(): Promise<void> {
    const p = this.pending;
    this.pending = [];
    await Promise.all(p);
  }
}
