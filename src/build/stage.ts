/**
 * Staging and the swap (data-and-rules §1.5): a build writes into a stage folder beside
 * the output (`.dist.stage-<pid>/`: `json/` for the JSON tree, `site/` for the finished
 * site), and only a complete site becomes the output, by release.ts's one `rename`. A
 * failed build removes its stage and leaves the output untouched.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { moveDir } from './move-dir.ts';
import { publish, removeStaleStages, type ReleaseStep } from './release.ts';

export class Stage {
  /** The JSON tree: views, static answers, downloads, host files. */
  readonly json: string;
  /** The finished site, published whole. */
  readonly site: string;

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
    return new Stage(join(dirname(outDir), `.${basename(outDir)}.stage-${process.pid}`), outDir);
  }

  /** Without pages, the JSON tree is the site. */
  async jsonIsSite(): Promise<void> {
    await moveDir(this.json, this.site);
  }

  /** The swap: the site becomes the output in one rename; the stage goes. */
  async publish(step?: (s: ReleaseStep) => void): Promise<void> {
    await publish(this.site, this.outDir, step);
    await this.discard();
  }

  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
