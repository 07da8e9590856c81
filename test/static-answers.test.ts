/**
 * Every static answer file of a build is the handler's own answer to its URL, to the byte:
 * the company family's files (shaped from the views in memory as the build makes them,
 * src/pipeline/write/static-files.ts) as much as the others, on a deployment that runs the function
 * (default forms only) and on a static host (the current month's month-addressed forms
 * too). A default form the handler answers with a 404 (a company without a profile) has
 * no file.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import { createHandler } from '../src/api/index.ts';
import { staticFiles } from '../src/api/endpoints.ts';
import { FsStore } from '../src/adapters/node/fs-store.ts';
import type { DeployTarget } from '../src/core/policy.ts';
import type { MetaView } from '../src/core/views/layout.ts';

const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-static-answers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each<DeployTarget>(['node', 'static'])('static answers of a %s build', (deploy) => {
  it('are, file for file, the bytes the handler answers for their URL', async () => {
    const data = join(tmp, `data-${deploy}`);
    const out = join(tmp, `dist-${deploy}`);
    cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });
    await runBuild({ root, dataDir: data, outDir: out, cacheDir: null, siteUrl: 'https://evi.example', deploy, pages: false, workers: 1 });
    const meta = JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')) as MetaView;
    const slugs = readdirSync(join(out, 'views/company')).map((f) => f.replace(/\.json$/, ''));
    const handle = createHandler(new FsStore(out), { log: () => {} });
    const seen = { company: 0, other: 0, absent: 0 };
    for (const file of staticFiles({ meta, slugs }, deploy)) {
      if (file.endpoint.static?.from === 'build') continue;
      const res = await handle(new Request(file.url));
      const path = join(out, file.file);
      if (res.status === 404) {
        expect(existsSync(path), file.file).toBe(false);
        seen.absent++;
        continue;
      }
      expect(res.status, file.url).toBe(200);
      expect(readFileSync(path, 'utf8'), file.file).toBe(await res.text());
      seen[(file.endpoint.handler ?? file.endpoint.id) === 'getCompany' ? 'company' : 'other']++;
    }
    // Every company with a profile has its file(s); a static host also has the month-addressed one.
    const withProfile = slugs.filter((slug) => (JSON.parse(readFileSync(join(out, `views/company/${slug}.json`), 'utf8')) as { defaultCountry: string | null }).defaultCountry !== null);
    expect(withProfile.length).toBeGreaterThan(0);
    expect(seen.company).toBe(withProfile.length * (deploy === 'static' ? 2 : 1));
    expect(seen.other).toBeGreaterThan(3);
    expect(seen.absent).toBe((slugs.length - withProfile.length) * (deploy === 'static' ? 2 : 1));
  }, 120_000);
});
