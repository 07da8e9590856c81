/**
 * Every month's leaderboards (`views/rankings/{month}/…`) and their CSV download
 * (`downloads/{month}/leaderboards.csv.gz`). A month's leaderboards depend only on its
 * own and the previous month's results and the registry, so they are cached as a folder
 * entry under a key of exactly those (caches.ts) and linked into the output: an
 * incremental build makes only the new month's.
 */
import { boardViews, type SiteInput } from '../core/views/build-views.ts';
import { encodeBoard } from '../core/views/board-rows.ts';
import { OVERALL, viewPaths } from '../core/views/layout.ts';
import { putCachedFolder } from './cache-file.ts';
import { boardsEntry, registryHash } from './caches.ts';
import { LeaderboardCsv, downloadPaths, leaderboardsGz, type CsvFacts } from './downloads.ts';
import type { LoadedData } from './load-data.ts';
import type { JsonWriter } from './write-json.ts';

/** The files of month `i`'s leaderboards and CSV (paths under the site root), and the CSV's facts. */
function boardFiles(input: SiteInput, i: number): { files: [string, Uint8Array][]; info: CsvFacts & { boards: number } } {
  const files: [string, Uint8Array][] = [];
  const csv = new LeaderboardCsv();
  let boards = 0;
  for (const { country, industry, view } of boardViews(input, i)) {
    files.push([viewPaths.board(view.month, country, industry), Buffer.from(JSON.stringify(view))]);
    // the overall boards (the largest) also in binary form, which the API reads one page at a time
    if (industry === OVERALL) files.push([viewPaths.overallBoardBinary(view.month, country), encodeBoard(view)]);
    csv.add(view);
    boards++;
  }
  const { gz, facts } = leaderboardsGz(csv);
  files.push([downloadPaths.leaderboards(input.results[i]!.month), gz]);
  return { files, info: { ...facts, boards } };
}

/** Writes every month's leaderboards and CSV under `out` (the site root); returns each month's CSV facts, oldest first. */
export async function writeMonthBoards(opts: {
  data: LoadedData;
  input: SiteInput;
  out: JsonWriter;
  cacheDir: string | null;
  log: (line: string) => void;
}): Promise<{ csv: CsvFacts[]; boards: number; fromCache: number }> {
  const { data, input, out, cacheDir } = opts;
  const regHash = cacheDir ? registryHash(data.registry) : '';
  const keys = data.contentKey;
  const csv: CsvFacts[] = [];
  let boards = 0;
  let fromCache = 0;
  for (let i = 0; i < input.results.length; i++) {
    const month = input.results[i]!.month;
    const known = keys[i] && (i === 0 || keys[i - 1]);
    const ref =
      cacheDir && known
        ? boardsEntry(cacheDir, month, { regHash, contentKey: keys[i]!, previous: i > 0 ? { month: input.results[i - 1]!.month, contentKey: keys[i - 1]! } : null })
        : null;
    const put = await putCachedFolder(out, ref, () => boardFiles(input, i), opts.log);
    if (put.fromCache) fromCache++;
    const { rows, bytes, sha256 } = put.info;
    csv.push({ rows, bytes, sha256 });
    boards += put.info.boards;
  }
  return { csv, boards, fromCache };
}
