/**
 * The atomic release (src/pipeline/release/release.ts) and a server that follows it
 * (src/adapters/node/release-follower.ts): `dist` is a link swapped in one rename; a crash at
 * any step leaves a complete output; a running server switches builds without a
 * restart and never answers from a mix of two.
 */
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../src/pipeline/run-build.ts';
import type { ReleaseStep } from '../src/pipeline/release/release.ts';
import { releasesDir } from '../src/pipeline/release/release.ts';
import { startServer } from '../src/adapters/node/index.ts';

const root = resolve(import.meta.dirname, '..');
const fixture = join(root, 'test/fixtures/basic');
const tmp = mkdtempSync(join(tmpdir(), 'evi-release-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HEADER = 'answer_id,collected_at,model,country,industry,theme,question_id,company\n';
const march = readFileSync(join(fixture, 'mentions/2026-03.csv'), 'utf8').split('\n').slice(1).filter(Boolean);
/** The fixture plus an April copy of March: a second, different build. */
function withApril(): string {
  const dir = mkdtempSync(join(tmp, 'data-'));
  cpSync(fixture, dir, { recursive: true });
  writeFileSync(join(dir, 'mentions/2026-04.csv'), HEADER + march.map((r) => r.replace(/2026-03-(\d\d)/, '2026-04-$1')).join('\n') + '\n');
  return dir;
}

const build = (dataDir: string, outDir: string, releaseStep?: (s: ReleaseStep) => void) =>
  runBuild({ root, dataDir, outDir, cacheDir: null, siteUrl: 'https://evi.example', pages: false, workers: 1, releaseStep, allowOlder: true });
const month = (out: string) => JSON.parse(readFileSync(join(out, 'views/meta.json'), 'utf8')).month as string;

describe('atomic release', () => {
  it('makes the output a link to a complete release, keeping only the current and the previous one', async () => {
    const out = join(tmp, 'a', 'dist');
    await build(fixture, out);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(month(out)).toBe('2026-03');
    await build(withApril(), out);
    await build(fixture, out);
    expect(month(out)).toBe('2026-03');
    expect(readdirSync(releasesDir(out))).toHaveLength(2);
    expect(readdirSync(join(tmp, 'a')).sort()).toEqual(['.dist-releases', 'dist']);
  });

  it('replaces an output folder of the older layout', async () => {
    const out = join(tmp, 'b', 'dist');
    cpSync(join(tmp, 'a', 'dist'), out, { recursive: true, dereference: true });
    expect(lstatSync(out).isDirectory()).toBe(true);
    await build(withApril(), out);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(month(out)).toBe('2026-04');
  });

  for (const step of ['moved', 'linked'] as const) {
    it(`a crash after the step "${step}" leaves the previous output complete, and the next build cleans up`, async () => {
      const out = join(tmp, `crash-${step}`, 'dist');
      await build(fixture, out);
      const before = readFileSync(join(out, 'views/meta.json'));
      const crash = await build(withApril(), out, (s) => {
        if (s === step) throw new Error(`crash injected after ${s}`);
      }).catch((e: Error) => e);
      expect((crash as Error).message).toBe(`crash injected after ${step}`);
      expect(readFileSync(join(out, 'views/meta.json'))).toEqual(before);
      expect(existsSync(join(out, 'api/v1/index.json'))).toBe(true);
      await build(withApril(), out);
      expect(month(out)).toBe('2026-04');
      // The crashed build's release and link are gone; the previous release stays for readers in flight.
      expect(readdirSync(releasesDir(out))).toHaveLength(2);
      expect(readdirSync(join(tmp, `crash-${step}`)).sort()).toEqual(['.dist-releases', 'dist']);
    });
  }
});

describe('a running server follows the release', () => {
  it('switches to a new build without a restart, every answer from one build, no error while it swaps', async () => {
    const out = join(tmp, 'served', 'dist');
    await build(fixture, out);
    const server = await startServer({ distDir: out, port: 0, log: null, rateLimitPerMinute: 0, releaseCheckMs: 0 });
    try {
      const april = withApril();
      const seen = new Set<string>();
      const failures: string[] = [];
      let building = true;
      const load = (async () => {
        while (building) {
          const paths = ['/api/v1/health', '/api/v1/rankings', '/api/v1/rankings/aerospace/us', '/api/v1/company/orbital-works', '/api/v1/search?q=orbital'];
          await Promise.all(
            paths.map(async (p) => {
              const res = await fetch(server.url + p);
              const text = await res.text();
              if (res.status !== 200) failures.push(`${p} ${res.status} ${text.slice(0, 200)}`);
              else {
                const body = JSON.parse(text) as { month: string };
                seen.add(body.month);
              }
            }),
          );
        }
      })();
      for (let i = 0; i < 3; i++) {
        await build(i % 2 === 0 ? april : fixture, out);
        await new Promise((r) => setTimeout(r, 50));
      }
      building = false;
      await load;
      expect(failures).toEqual([]);
      expect([...seen].sort()).toEqual(['2026-03', '2026-04']);
      // The last build (April) is what the server answers now, without a restart.
      const health = (await (await fetch(`${server.url}/api/v1/health`)).json()) as { month: string };
      expect(health.month).toBe('2026-04');
    } finally {
      await server.close();
    }
  });
});
