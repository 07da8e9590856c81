/**
 * A view store that reads the packed layout (src/core/views/packs.ts) over any other store:
 * a path of a packed group is read from its pack, a split file from its parts joined (or as its parts, `chunks`), every
 * other path from the store beneath. Without a manifest (a build that packed nothing) it
 * reads straight through.
 */
import { PACK_MANIFEST, Pack, packGroup, packPath, partFile, type PackManifest, type SplitFile } from '../core/views/packs.ts';
import type { FileParts } from '../core/search/sections.ts';
import { PromiseCache } from './promise-cache.ts';
import type { ViewStore } from './store.ts';

/** Packs kept in memory, by size: a few at a time within a Worker isolate's 128 MB. */
const PACK_BYTES = 24 * 1024 * 1024;

const decoder = new TextDecoder();

/**
 * @example
 * const store = new PackedStore(new FsStore('dist'));
 * await store.read('views/company/acme.json'); // from its pack, when packed
 */
export class PackedStore implements ViewStore {
  readonly #inner: ViewStore;
  #manifest: Promise<PackManifest | null> | null = null;
  readonly #packs: PromiseCache<Pack | null>;
  #loose = new Set<string>();

  constructor(inner: ViewStore, packBytes = PACK_BYTES) {
    this.#inner = inner;
    this.#packs = new PromiseCache(packBytes);
  }

  /** The manifest, `null` when the build packed nothing; read once. */
  manifest(): Promise<PackManifest | null> {
    this.#manifest ??= this.#inner.read(PACK_MANIFEST).then((text) => {
      if (text === null) return null;
      const manifest = JSON.parse(text) as PackManifest;
      manifest.split ??= {};
      this.#loose = new Set(manifest.loose);
      return manifest;
    });
    this.#manifest.catch(() => (this.#manifest = null));
    return this.#manifest;
  }

  async read(path: string): Promise<string | null> {
    const packed = await this.#entry(path);
    if (packed === undefined) return this.#inner.read(path);
    return packed === null ? null : decoder.decode(packed);
  }

  async bytes(path: string): Promise<Uint8Array | null> {
    const packed = await this.#entry(path);
    if (packed !== undefined) return packed;
    return this.#inner.bytes ? this.#inner.bytes(path) : null;
  }

  /** The file's bytes as stored: a split file's parts in order, unjoined; any other file in one chunk. */
  async chunks(path: string): Promise<Uint8Array[] | null> {
    const manifest = await this.manifest();
    const split = manifest?.split[path];
    if (split) return this.#parts(path, split);
    const bytes = await this.bytes(path);
    return bytes ? [bytes] : null;
  }

  /** A split file whose parts' ends the manifest lists, as parts to read one at a time; `null` for any other file. */
  async partsOf(path: string): Promise<FileParts | null> {
    const split = (await this.manifest())?.split[path];
    if (!split?.ends || split.ends.length !== split.parts) return null;
    const read = async (n: number): Promise<Uint8Array> => {
      const bytes = this.#inner.bytes ? await this.#inner.bytes(partFile(path, n)) : null;
      if (bytes === null) throw new Error(`${partFile(path, n)} is missing`);
      return bytes;
    };
    return { ends: split.ends, read };
  }

  /** A split file's parts in order, each read when the reader asks for it. */
  async *parts(path: string, split: SplitFile): AsyncGenerator<Uint8Array> {
    for (let n = 0; n < split.parts; n++) {
      const bytes = this.#inner.bytes ? await this.#inner.bytes(partFile(path, n)) : null;
      if (bytes === null) throw new Error(`${partFile(path, n)} is missing`);
      yield bytes;
    }
  }

  /**
   * The entry's bytes from its pack or its parts; `undefined` when the path is neither in a
   * packed group nor split.
   */
  async #entry(path: string): Promise<Uint8Array | null | undefined> {
    const group = packGroup(path);
    const manifest = await this.manifest();
    const split = manifest?.split[path];
    if (split) return this.#joined(path, split);
    if (group === null) return undefined;
    const count = manifest?.groups[group];
    if (!count || this.#loose.has(path)) return undefined;
    const file = packPath(group, path, count);
    const pack = await this.#packs.get(file, () => this.#readPack(file), (p) => p?.bytes.byteLength ?? 0);
    return pack ? pack.get(path) : null;
  }

  async #joined(path: string, split: SplitFile): Promise<Uint8Array> {
    const out = new Uint8Array(split.bytes);
    let at = 0;
    for await (const part of this.parts(path, split)) {
      out.set(part, at);
      at += part.byteLength;
    }
    if (at !== split.bytes) throw new Error(`${path}: its parts hold ${at} bytes, not ${split.bytes}`);
    return out;
  }

  /** Every part of a split file; checks that they hold the file's length. */
  async #parts(path: string, split: SplitFile): Promise<Uint8Array[]> {
    const parts: Uint8Array[] = [];
    for await (const part of this.parts(path, split)) parts.push(part);
    const total = parts.reduce((n, p) => n + p.byteLength, 0);
    if (total !== split.bytes) throw new Error(`${path}: its parts hold ${total} bytes, not ${split.bytes}`);
    return parts;
  }

  async #readPack(file: string): Promise<Pack | null> {
    const bytes = this.#inner.bytes ? await this.#inner.bytes(file) : null;
    if (bytes === null) throw new Error(`${file} is missing`);
    return new Pack(bytes);
  }
}

/** `store` itself when it reads packs already, otherwise `store` wrapped to read them. */
export const packedStore = (store: ViewStore): PackedStore => (store instanceof PackedStore ? store : new PackedStore(store));
