/**
 * Staging (data-and-rules §1.5): a build writes into a stage folder beside the output; only
 * a complete site becomes the output. A failed build removes its stage.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { moveDir } from './move-dir.ts';
import { publish, pruneBehindLive, removeStaleStages, type ReleaseStep } from './release.ts';

export class Stage {
  /** The JSON tree: views, static answers, downloads, host files. */
  readonly json: string;
  /** The finished site, published whole. */
  readonly site: string;

  private pruning: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly outDir: string,
  ) {
    this.json = join(dir, 'json');
    this.site = join(dir, 'site');
  }

  /** A fresh stage for `outDir`, after removing the stages of killed builds. */
  static async open(outDir: string): Promise<Stage> {
    await removeStaleStages(outDir);
    const stage = new Stage(join(dirname(outDir), `.${basename(outDir)}.stage-${process.pid}`), outDir);
    // A failed removal is only a leftover: the swap's own prune tries again.
    stage.pruning = pruneBehindLive(outDir).catch(() => {});
    return stage;
  }

  /** Without pages, the JSON tree is the site. */
  async jsonIsSite(): Promise<void> {
    await moveDir(this.json, this.site);
  }

  /** The swap: the site becomes the output in one rename; the stage goes. */
  async publish(step?: (s: ReleaseStep) => void): Promise<void> {
    await this.pruning;
    await publish(this.site, this.outDir, step);
    await this.discard();
  }

  async discard(): Promise<void> {
    await this.pruning;
    await rm(this.dir, { recursive: true, force: true });
  }
}
