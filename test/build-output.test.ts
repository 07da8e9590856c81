/**
 * The build as the operator runs it (`npm run build`: BUILD_NODE_ARGS): reproducible to the
 * byte, atomic on failure, incremental through the cache. The JSON tree only (EVI_PAGES=0):
 * the pages' bytes are held to the same by test/page-workers.test.ts (a build with the
 * compiled pages from the cache against the shared build, and Astro rendering every page alone).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_NODE_ARGS } from '../src/pipeline/workers/build-command.ts';
import { reportPath } from '../src/pipeline/write/report.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'evi-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function build(env: Record<string, string>) {
  try {
    const r = await run(process.execPath, [...BUILD_NODE_ARGS], {
      cwd: root,
      env: { ...process.env, SOURCE_DATE_EPOCH: '1790000000', SITE_URL: 'https://evi.example', EVI_PAGES: '0', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

describe('build output', () => {
  const data = join(tmp, 'data');
  cpSync(join(root, 'test/fixtures/basic'), data, { recursive: true });

  it('is byte-identical for identical input', async () => {
    const a = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'a'), EVI_CACHE_DIR: 'off' });
    expect(a.code, a.stderr).toBe(0);
    const b = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'b'), EVI_CACHE_DIR: join(tmp, 'cache-b') });
    expect(b.code, b.stderr).toBe(0);
    const ta = tree(join(tmp, 'a'));
    const tb = tree(join(tmp, 'b'));
    expect([...ta.keys()].sort()).toEqual([...tb.keys()].sort());
    for (const [k, v] of ta) expect(v.equals(tb.get(k)!), k).toBe(true);
    expect(ta.has('api/v1/index.json') && ta.has('views/meta.json')).toBe(true);
    // SOURCE_DATE_EPOCH 1790000000 is 2026-09-21.
    expect(JSON.parse(ta.get('api/v1/health.json')!.toString()).lastUpdated).toBe('2026-09-21');
  });

  it('leaves the previous output exactly as it was when the data is bad', async () => {
    const out = join(tmp, 'a');
    const before = tree(out);
    const mtimes = [...before.keys()].map((k) => statSync(join(out, k)).mtimeMs);
    const bad = join(tmp, 'bad');
    cpSync(data, bad, { recursive: true });
    writeFileSync(join(bad, 'mentions/2026-03.csv'), readFileSync(join(bad, 'mentions/2026-03.csv'), 'utf8') + 'x1,not-a-date,ChatGPT,us,Aerospace,Leadership,q1,\n');
    const r = await build({ EVI_DATA_DIR: bad, EVI_OUT_DIR: out, EVI_CACHE_DIR: 'off' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/mentions\/2026-03\.csv:35:2 \(collected_at\): must be a date/);
    expect(r.stderr).toMatch(/the output folder was not touched/);
    const after = tree(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [k, v] of before) expect(v.equals(after.get(k)!), k).toBe(true);
    expect([...before.keys()].map((k) => statSync(join(out, k)).mtimeMs)).toEqual(mtimes);
    expect(readdirSync(tmp).filter((n) => n.includes('.stage-'))).toEqual([]);
  });

  it('parses only the months whose file changed', async () => {
    const cache = join(tmp, 'cache-b');
    const again = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'b'), EVI_CACHE_DIR: cache });
    expect(again.stderr).toMatch(/2026-02: 3 rows \(cached, unchanged\)/);
    expect(again.stderr).toMatch(/2026-03: 33 rows \(cached, unchanged\)/);
    writeFileSync(join(data, 'mentions/2026-03.csv'), readFileSync(join(data, 'mentions/2026-03.csv'), 'utf8') + 'x9,2026-03-12,ChatGPT,us,Aerospace,Leadership,q1,Orbital Works\n');
    const changed = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'b'), EVI_CACHE_DIR: cache });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/2026-02: 3 rows \(cached, unchanged\)/);
    expect(changed.stderr).toMatch(/2026-03: 34 rows read in/);
    expect(JSON.parse(readFileSync(reportPath(join(tmp, 'b')), 'utf8')).rows.total).toBe(37);
    expect(changed.stderr).toMatch(/Scored 2 months \(1 from the cache\)/);
    // What the caches give back is what a build without them computes, to the byte.
    const fresh = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'c'), EVI_CACHE_DIR: 'off' });
    expect(fresh.code, fresh.stderr).toBe(0);
    const tb = tree(join(tmp, 'b'));
    const tc = tree(join(tmp, 'c'));
    expect([...tb.keys()].sort()).toEqual([...tc.keys()].sort());
    for (const [k, v] of tb) expect(v.equals(tc.get(k)!), k).toBe(true);
  });

  it('never uses a truncated or edited cache entry: each is reported in one warning line and computed again', async () => {
    const cache = join(tmp, 'cache-d');
    const first = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'd'), EVI_CACHE_DIR: cache });
    expect(first.code, first.stderr).toBe(0);
    const entries = readdirSync(cache);
    const parsed = entries.find((n) => /^2026-02-[0-9a-f]{32}\.bin$/.test(n))!;
    const scored = entries.find((n) => n.startsWith('scored-2026-02-'))!;
    const views = entries.find((n) => n.startsWith('month-views-2026-02-'))!;
    expect([parsed, scored, views].every(Boolean), entries.join(' ')).toBe(true);
    // Truncated: half of the parsed month.
    const p = readFileSync(join(cache, parsed));
    writeFileSync(join(cache, parsed), p.subarray(0, Math.floor(p.length / 2)));
    // Edited but still valid JSON: one figure of the scored month changed.
    const sc = readFileSync(join(cache, scored), 'utf8');
    const edited = sc.replace(/"hits":\[(\d)/, (_, d: string) => `"hits":[${(Number(d) + 1) % 10}`);
    expect(edited).not.toBe(sc);
    writeFileSync(join(cache, scored), edited);
    // A past month's views (a folder entry): one shard edited.
    const shardDir = join(cache, views, 'months/2026-02/companies');
    const shard = readdirSync(shardDir)[0]!;
    const original = readFileSync(join(shardDir, shard), 'utf8');
    rmSync(join(shardDir, shard));
    // (one figure of its first record changed)
    const editedShard = original.replace(/("companies":\{"[^"]+":\["\w+",\[\["\w+","[^"]*",)(\d)/, (_, head: string, d: string) => `${head}${(Number(d) + 1) % 10}`);
    expect(editedShard).not.toBe(original);
    writeFileSync(join(shardDir, shard), editedShard);
    // A month's leaderboards (a folder entry): one board edited in place (same inode, new modification time).
    const boards = entries.find((n) => n.startsWith('boards-2026-03-'))!;
    const boardDir = join(cache, boards, 'views/rankings/2026-03/us');
    const board = readdirSync(boardDir)[0]!;
    const boardText = readFileSync(join(boardDir, board), 'utf8');
    writeFileSync(join(boardDir, board), boardText.replace(/"previousMonth":"2026-02"/, '"previousMonth":"2026-01"'));
    expect(readFileSync(join(boardDir, board), 'utf8')).not.toBe(boardText);
    const again = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'd'), EVI_CACHE_DIR: cache });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/SyntaxError|\n\s+at /);
    expect(again.stderr).toMatch(new RegExp(`warning: cache entry ${parsed} is \\d+ bytes long instead of \\d+ \\(truncated\\?\\); it is computed again`));
    expect(again.stderr).toMatch(new RegExp(`warning: cache entry ${scored} does not match its digest \\(edited or damaged\\); it is computed again`));
    expect(again.stderr).toMatch(new RegExp(`warning: cache entry ${views} has months/2026-02/companies/${shard} not matching its digest \\(edited or damaged\\); it is computed again`));
    expect(again.stderr).toMatch(new RegExp(`warning: cache entry ${boards} has views/rankings/2026-03/us/${board} not matching its digest \\(edited or damaged\\); it is computed again`));
    expect(again.stderr.match(/warning: cache entry/g)).toHaveLength(4);
    const fresh = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'e'), EVI_CACHE_DIR: 'off' });
    const td = tree(join(tmp, 'd'));
    const te = tree(join(tmp, 'e'));
    expect([...td.keys()].sort()).toEqual([...te.keys()].sort());
    for (const [k, v] of td) expect(v.equals(te.get(k)!), k).toBe(true);
    // And the entries were written again, intact: a third build warns about nothing.
    const third = await build({ EVI_DATA_DIR: data, EVI_OUT_DIR: join(tmp, 'd'), EVI_CACHE_DIR: cache });
    expect(third.stderr).not.toMatch(/warning/);
  });
});
