/**
 * Spools: the files of a surely packed build that go into packs (the profile pages), written
 * one after another into a few spool files instead of a folder and a file each, and read back
 * by pack-site. Spares the file system a folder, a file, an unlink and a folder removal per
 * page, which the packing would otherwise pay for every company.
 *
 * A spool file holds entries back to back: the path's length (u32, little-endian), the path
 * (UTF-8), the content's length (u32), the content.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

const EXT = '.spool';
let made = 0;

/** Appends entries to a new spool file in `dir`, opened at the first entry. */
export class SpoolWriter {
  #fd: number | null = null;
  readonly #head = Buffer.alloc(4);

  constructor(private readonly dir: string) {}

  add(path: string, bytes: Uint8Array): void {
    if (this.#fd === null) {
      mkdirSync(this.dir, { recursive: true });
      this.#fd = openSync(join(this.dir, `${process.pid}-${threadId}-${made++}${EXT}`), 'wx');
    }
    const name = Buffer.from(path);
    this.#write(this.#u32(name.length));
    this.#write(name);
    this.#write(this.#u32(bytes.length));
    this.#write(bytes);
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  #u32(n: number): Buffer {
    this.#head.writeUInt32LE(n);
    return this.#head;
  }

  #write(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) done += writeSync(this.#fd!, bytes, done, bytes.length - done);
  }
}

/** An entry of a spool: where its content lies. */
export interface SpoolEntry {
  file: string;
  offset: number;
  size: number;
}

/** The spool files of a folder, open for reading: their entries by path. */
export class Spools {
  readonly entries = new Map<string, SpoolEntry>();
  readonly #fds = new Map<string, number>();

  /** The spools in `dir` (none if there is no such folder). */
  constructor(dir: string) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(EXT));
    } catch {
      return;
    }
    const head = Buffer.alloc(4);
    for (const name of names.sort()) {
      const file = join(dir, name);
      const fd = openSync(file, 'r');
      this.#fds.set(file, fd);
      const u32 = (at: number) => {
        if (readSync(fd, head, 0, 4, at) !== 4) throw new Error(`spool ${file}: truncated at byte ${at}`);
        return head.readUInt32LE();
      };
      for (let at = 0; readSync(fd, head, 0, 4, at) > 0; ) {
        const pathBytes = Buffer.alloc(u32(at));
        readSync(fd, pathBytes, 0, pathBytes.length, at + 4);
        const path = pathBytes.toString();
        const size = u32(at + 4 + pathBytes.length);
        const offset = at + 8 + pathBytes.length;
        if (this.entries.has(path)) throw new Error(`spool ${file}: ${path} spooled twice`);
        this.entries.set(path, { file, offset, size });
        at = offset + size;
      }
    }
  }

  /** The content of a spooled entry. */
  read(entry: SpoolEntry): Buffer {
    const bytes = Buffer.allocUnsafe(entry.size);
    for (let done = 0; done < entry.size; ) {
      const n = readSync(this.#fds.get(entry.file)!, bytes, done, entry.size - done, entry.offset + done);
      if (n === 0) throw new Error(`spool ${entry.file}: truncated at byte ${entry.offset + done}`);
      done += n;
    }
    return bytes;
  }

  close(): void {
    for (const fd of this.#fds.values()) closeSync(fd);
    this.#fds.clear();
  }
}
