import type { ViewStore } from '../../api/index.ts';

/** The static-assets binding of a Worker (`env.ASSETS`). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/**
 * The view store of the Worker: the files of `dist/` uploaded as static assets,
 * read through the binding (no public round trip).
 *
 * @example
 * const store = new AssetsStore(env.ASSETS);
 */
export class AssetsStore implements ViewStore {
  readonly #assets: AssetsBinding;

  constructor(assets: AssetsBinding) {
    this.#assets = assets;
  }

  async read(path: string): Promise<string | null> {
    const res = await this.#fetch(path);
    return res ? res.text() : null;
  }

  /** The binary search index is read as bytes, viewed in place. */
  async bytes(path: string): Promise<Uint8Array | null> {
    const res = await this.#fetch(path);
    return res ? new Uint8Array(await res.arrayBuffer()) : null;
  }

  async #fetch(path: string): Promise<Response | null> {
    const url = `https://assets.local/${path.split('/').map(encodeURIComponent).join('/')}`;
    const res = await this.#assets.fetch(new Request(url));
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`assets answered ${res.status} for ${path}`);
    }
    return res;
  }
}
