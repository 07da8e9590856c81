/**
 * Bulk downloads: per month every leaderboard entry as one gzip CSV, the current month's
 * profiles as gzip NDJSON, and manifests. Byte-for-byte reproducible (gzip without a timestamp).
 */
import { createHash } from 'node:crypto';
import { createGzip, gzipSync } from 'node:zlib';
import { readDataJson } from './data-json.ts';
import { DEFAULT_DATASET, DatasetSchema, citationText, type Dataset } from '../../core/schemas/dataset.ts';
import type { BoardView } from '../../core/views/layout.ts';
import type { SiteUrls } from '../../core/urls.ts';
import { ByteBuilder } from './byte-builder.ts';
import type { JsonWriter } from './write-json.ts';

/** Where the downloads live under the site root. */
export const DOWNLOADS_DIR = 'downloads';
export const downloadPaths = {
  manifest: () => `${DOWNLOADS_DIR}/manifest.json`,
  monthManifest: (month: string) => `${DOWNLOADS_DIR}/${month}/manifest.json`,
  leaderboards: (month: string) => `${DOWNLOADS_DIR}/${month}/leaderboards.csv.gz`,
  profiles: (month: string) => `${DOWNLOADS_DIR}/${month}/profiles.ndjson.gz`,
};

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'integer|null';
  description: string;
}

/** The columns of `leaderboards.csv.gz`, in order. */
export const LEADERBOARD_COLUMNS: Column[] = [
  { name: 'month', type: 'string', description: 'Dataset month, YYYY-MM' },
  { name: 'country_code', type: 'string', description: 'ISO 3166-1 alpha-2 code of the country' },
  { name: 'country', type: 'string', description: 'Country name' },
  { name: 'leaderboard', type: 'string', description: 'Industry slug of the leaderboard, or "all" for the overall leaderboard of the country' },
  { name: 'leaderboard_name', type: 'string', description: 'Industry name, or "All industries"' },
  { name: 'rank', type: 'integer', description: 'Rank on this leaderboard, from 1' },
  { name: 'slug', type: 'string', description: 'Company slug (the API id)' },
  { name: 'company', type: 'string', description: 'Company name' },
  { name: 'industry', type: 'string', description: "The entry's industry (on the overall leaderboard: the company's best industry)" },
  { name: 'visibility_score', type: 'number', description: 'Visibility Score 0-100, one decimal' },
  { name: 'mention_count', type: 'integer', description: 'Distinct scored answers naming the company' },
  { name: 'previous_rank', type: 'integer|null', description: 'Rank on the same leaderboard the month before; empty when it was not on it' },
  { name: 'rank_change', type: 'integer|null', description: 'previous_rank - rank (positive: moved up); empty when previous_rank is' },
  { name: 'combinations_named', type: 'integer', description: '(scored model, theme) combinations in which an answer named the company' },
  { name: 'combinations', type: 'integer', description: 'Combinations asked in the industry and country that month (the score is 100 x combinations_named / combinations)' },
  { name: 'scored_answers', type: 'integer', description: 'Scored answers in the industry and country that month' },
];

export interface FileEntry {
  path: string;
  url: string;
  format: 'csv+gzip' | 'ndjson+gzip';
  bytes: number;
  rows: number;
  sha256: string;
  columns?: Column[];
  description: string;
}

export interface MonthManifest {
  name: string;
  month: string;
  files: FileEntry[];
  license: Dataset['license'];
  citation: string;
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 });
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** What makes PapaParse's writer quote a field. */
const QUOTED = /[\r\n",\ufeff]|^ | $/;

/** One field of a CSV line as `Papa.unparse` writes it: null empty, a string quoted only when needed. */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  return QUOTED.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** Collects a month's leaderboards into one CSV, the bytes of PapaParse's writer, encoded row by row. */
export class LeaderboardCsv {
  readonly #bytes: ByteBuilder;
  #rows = 0;

  constructor() {
    this.#bytes = new ByteBuilder(1 << 20);
    this.#bytes.append(LEADERBOARD_COLUMNS.map((c) => csvField(c.name)).join(','));
  }

  add(view: BoardView): void {
    const head = `${csvField(view.month)},${csvField(view.countryCode)},${csvField(view.country)},${csvField(view.industrySlug)},${csvField(view.industry)},`;
    const rows = view.rows;
    for (let i = 0; i < rows.length; i++) {
      const [slug, company, industry, score, mentions, previousRank, named, k, answers] = rows[i]!;
      const rank = i + 1;
      this.#bytes.append(
        `\n${head}${rank},${csvField(slug)},${csvField(company)},${csvField(industry)},${csvField(score)},${csvField(mentions)},${csvField(previousRank)},${csvField(previousRank === null ? null : previousRank - rank)},${csvField(named)},${csvField(k)},${csvField(answers)}`,
      );
    }
    this.#rows += rows.length;
  }

  get rows(): number {
    return this.#rows;
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  /** The CSV's bytes (UTF-8): a view of its buffer, valid until the next `add`. */
  bytes(): Buffer {
    const end = this.#bytes.length;
    // Without a row PapaParse's writer ends the header with a line break too.
    this.#bytes.append(this.#rows === 0 ? '\n\n' : '\n');
    const out = this.#bytes.view();
    this.#bytes.truncate(end);
    return out;
  }

}

/** What a month's manifest says of its leaderboards CSV (which may come from the cache). */
export type CsvFacts = {
  rows: number;
  bytes: number;
  sha256: string;
};

/** The month's leaderboards CSV, gzipped (no timestamp: reproducible), and its facts. */
export function leaderboardsGz(csv: LeaderboardCsv): { gz: Buffer; facts: CsvFacts } {
  const gz = gzip(csv.bytes());
  return { gz, facts: { rows: csv.rows, bytes: gz.byteLength, sha256: sha256(gz) } };
}

export interface ProfilesGz {
  gz: Buffer;
  rows: number;
}

/** How much NDJSON text {@link ProfilesGzip} hands zlib at a time. */
const PROFILES_CHUNK = 1 << 20;

/**
 * Text handed to zlib and not yet read above which {@link ProfilesGzip.drained} makes the caller
 * wait: the profiles grow with the months of history, and a thread that seldom turns the
 * event loop would otherwise pile them all up uncompressed.
 */
const PROFILES_MAX_UNREAD = 8 * PROFILES_CHUNK;

/** The profiles download's deflate level: zlib's default; level 9 costs far more CPU for little. */
export const PROFILES_GZIP_LEVEL = 6;

/**
 * The current month's profiles as gzip NDJSON, compressed on libuv's thread pool while the
 * profiles are made, off the build's thread. The bytes equal gzipSync's of the whole text.
 */
export class ProfilesGzip {
  readonly #zip = createGzip({ level: PROFILES_GZIP_LEVEL, chunkSize: PROFILES_CHUNK });
  readonly #parts: Buffer[] = [];
  readonly #done: Promise<ProfilesGz>;
  /** Chunk buffers zlib has read, ready for another chunk. */
  readonly #free: Buffer[] = [];
  #chunk: ByteBuilder | null = null;
  #rows = 0;
  #buffers = 0;
  /** Bytes written to zlib and not yet read by it, and the callers waiting for them to shrink. */
  #unread = 0;
  #drainers: (() => void)[] = [];
  #finished = false;

  constructor() {
    this.#zip.on('data', (chunk: Buffer) => this.#parts.push(chunk));
    this.#done = new Promise((resolve, reject) => {
      this.#zip.on('end', () => resolve({ gz: Buffer.concat(this.#parts), rows: this.#rows }));
      this.#zip.on('error', reject);
    });
    this.#done.catch(() => {}); // reported by finish()
  }

  add(line: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8
    if (this.#chunk && this.#chunk.length + 3 * line.length + 1 > this.#chunk.buffer.length) this.#flush();
    this.#chunk ??= new ByteBuilder(this.#free.pop() ?? this.#newBuffer());
    this.#chunk.append(line);
    this.#chunk.append('\n');
    this.#rows++;
    if (this.#chunk.length >= PROFILES_CHUNK) this.#flush();
  }

  /** How many chunk buffers were made. */
  get buffers(): number {
    return this.#buffers;
  }

  /** How many pieces of output zlib has handed back. */
  get answers(): number {
    return this.#parts.length;
  }

  /** Bytes handed to zlib that it has not read yet. */
  get unread(): number {
    return this.#zip.writableLength;
  }

  /** Resolves once the text zlib has not read yet is under PROFILES_MAX_UNREAD. */
  drained(): Promise<void> {
    return this.#unread > PROFILES_MAX_UNREAD ? new Promise((resolve) => this.#drainers.push(resolve)) : Promise.resolve();
  }

  /** The file's bytes, once zlib has compressed what was added. */
  finish(): Promise<ProfilesGz> {
    this.#flush();
    this.#finished = true;
    // no chunk comes any more: the spare buffers go
    this.#free.length = 0;
    this.#zip.end();
    return this.#done;
  }

  #newBuffer(): Buffer {
    this.#buffers++;
    // room for a chunk and the longest line that does not start one
    return Buffer.allocUnsafeSlow(2 * PROFILES_CHUNK);
  }

  #flush(): void {
    const chunk = this.#chunk;
    if (!chunk) return;
    this.#chunk = null;
    const buffer = chunk.buffer;
    const bytes = chunk.length;
    this.#unread += bytes;
    // free again once zlib has read it
    this.#zip.write(chunk.view(), () => {
      this.#unread -= bytes;
      if (!this.#finished) this.#free.push(buffer);
      if (this.#unread <= PROFILES_MAX_UNREAD) for (const wake of this.#drainers.splice(0)) wake();
    });
  }
}

/** Writes a month's profiles file (current month only) and its manifest. */
export function writeMonthDownloads(
  out: JsonWriter,
  opts: { name: string; month: string; leaderboards: CsvFacts; profiles: ProfilesGz | null; dataset: Dataset; urls: SiteUrls },
): MonthManifest {
  const { month, urls } = opts;
  const files: FileEntry[] = [];
  const entry = (path: string, facts: { bytes: number; sha256: string }, rest: Omit<FileEntry, 'path' | 'url' | 'bytes' | 'sha256'>) =>
    files.push({ path: `/${path}`, url: `${urls.origin}/${path}`, bytes: facts.bytes, sha256: facts.sha256, ...rest });
  entry(downloadPaths.leaderboards(month), opts.leaderboards, {
    format: 'csv+gzip',
    rows: opts.leaderboards.rows,
    columns: LEADERBOARD_COLUMNS,
    description: `Every entry of every leaderboard of ${month}: each industry of each country, and each country's overall leaderboard ("all").`,
  });
  if (opts.profiles) {
    const path = downloadPaths.profiles(month);
    const bytes = opts.profiles.gz;
    out.writeBytes(path, bytes);
    entry(path, { bytes: bytes.byteLength, sha256: sha256(bytes) }, {
      format: 'ndjson+gzip',
      rows: opts.profiles.rows,
      description: `Every company profile of ${month}, one JSON object per line, in every country where the company has data: the body of GET /api/v1/company/{slug}?country={code}.`,
    });
  }
  const manifest: MonthManifest = { name: opts.name, month, files, license: opts.dataset.license, citation: citationOf(opts.dataset, opts.name, month, urls) };
  out.write(downloadPaths.monthManifest(month), manifest);
  return manifest;
}

const citationOf = (dataset: Dataset, name: string, month: string, urls: SiteUrls) => citationText(dataset, name, month, urls.home);

/** The data folder's dataset.json, or the defaults when there is none. */
export const loadDataset = (dataDir: string): Promise<Dataset> => readDataJson(dataDir, DATASET_FILE, DatasetSchema, DEFAULT_DATASET);

export const DATASET_FILE = 'dataset.json';

/** The manifest of the whole dataset: every month's files, the license, how to cite. */
export function writeDatasetManifest(out: JsonWriter, opts: { name: string; current: string; months: MonthManifest[]; dataset: Dataset; urls: SiteUrls }): void {
  out.write(downloadPaths.manifest(), {
    name: opts.name,
    currentMonth: opts.current,
    license: opts.dataset.license,
    citation: citationOf(opts.dataset, opts.name, opts.current, opts.urls),
    months: opts.months.map((m) => ({ month: m.month, manifest: `${opts.urls.origin}/${downloadPaths.monthManifest(m.month)}`, files: m.files })),
  });
}
