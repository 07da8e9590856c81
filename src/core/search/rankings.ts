/**
 * What a search answer says about each hit (its company, website, industries and
 * ranking in a country) and which companies a country filter keeps, for one month.
 * The build writes it as JSON (`search-rankings.json`, 4.7 MB at 10,000 companies:
 * ~25 ms of CPU to parse on a fresh Worker instance) and in binary form
 * (`search-rankings.bin`), which a search reads in place: a bit per company and
 * country for the filter, and each company's entry as its own JSON text, parsed
 * only for the hits of the answer (from a file kept in parts, only the parts holding
 * them are read: `BinarySearchRankings.open`).
 *
 * Binary layout: the container of `sections.ts` (magic `EVSR`). Sections: a JSON
 * header `{ month, countries }` (UTF-8), the slug pool (u8 or u16, as in
 * `sections.ts`) and the slugs' ranges
 * (u32 pairs, slugs in code-unit order), the filter bits (per company
 * `ceil((countries + 1) / 8)` bytes: bit `c` = ranked in `countries[c]`, bit
 * `countries.length` = ranked in its default country), the entries' byte offsets
 * (u32, companies + 1) and the entries (UTF-8 JSON, each a flat array: see `toRecord`).
 */
import type { SearchRankingsView } from '../views/layout.ts';
import { PoolWriter, Sections, writeSections, type FileBytes, type FileParts } from './sections.ts';
import { ArrayStrings, PoolStrings, type Strings } from './strings.ts';

export type SearchRankingsEntry = SearchRankingsView['companies'][string];

/** One month's search rankings, however stored. */
export interface SearchRankings {
  readonly month: string;
  /** Bytes it holds in memory beyond what a cache already counts (its file, for the binary form). */
  readonly bytes: number;
  /** The company's entry; `undefined` when it has none this month. Only for slugs {@link SearchRankings.prepare}d. */
  company(slug: string): SearchRankingsEntry | undefined;
  /** Reads what {@link SearchRankings.company} needs for these companies (their entries, when the file is read in parts). */
  prepare(slugs: readonly string[]): Promise<void>;
  /** Is the company ranked in `country` (a code), or, for `null`, in its default country? */
  ranked(slug: string, country: string | null): boolean;
}

function rankedIn(entry: SearchRankingsEntry | undefined, country: string | null): boolean {
  if (!entry) return false;
  const code = country ?? entry.defaultCountry;
  return code !== null && entry.rankings[code] !== undefined;
}

/** {@link SearchRankings} over the parsed JSON view. */
export class JsonSearchRankings implements SearchRankings {
  readonly month: string;
  readonly bytes: number;
  readonly #view: SearchRankingsView;

  /** `bytes`: its weight where no view cache counts it already. */
  constructor(view: SearchRankingsView, bytes = 0) {
    this.month = view.month;
    this.bytes = bytes;
    this.#view = view;
  }

  company(slug: string): SearchRankingsEntry | undefined {
    return Object.hasOwn(this.#view.companies, slug) ? this.#view.companies[slug] : undefined;
  }

  ranked(slug: string, country: string | null): boolean {
    return rankedIn(this.company(slug), country);
  }

  async prepare(): Promise<void> {}
}

const MAGIC = 'EVSR';
const VERSION = 1;
const SECTIONS = 7;

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An entry as a flat JSON array (less than half the bytes of the object):
 * `[company, website, industries, defaultCountry, then per country: code, industry,
 * rank, industryRank, totalCompaniesInIndustry, visibilityScore]`.
 */
type EntryRecord = (string | number | string[] | null)[];
const PER_COUNTRY = 6;

function toRecord(entry: SearchRankingsEntry): EntryRecord {
  const record: EntryRecord = [entry.company, entry.website, entry.industries, entry.defaultCountry];
  for (const [code, r] of Object.entries(entry.rankings)) record.push(code, r.industry, r.rank, r.industryRank, r.totalCompaniesInIndustry, r.visibilityScore);
  return record;
}

function fromRecord(record: EntryRecord): SearchRankingsEntry {
  const rankings: SearchRankingsEntry['rankings'] = {};
  for (let i = 4; i + PER_COUNTRY <= record.length; i += PER_COUNTRY) {
    rankings[record[i] as string] = {
      industry: record[i + 1] as string,
      rank: record[i + 2] as number,
      industryRank: record[i + 3] as number,
      totalCompaniesInIndustry: record[i + 4] as number,
      visibilityScore: record[i + 5] as number,
    };
  }
  return { company: record[0] as string, website: record[1] as string, industries: record[2] as string[], defaultCountry: record[3] as string | null, rankings };
}

/** The binary form of a month's search rankings view. Deterministic. */
export function encodeSearchRankings(view: SearchRankingsView): Uint8Array {
  const slugs = Object.keys(view.companies).sort(compareCodeUnits);
  const countries = [...new Set(slugs.flatMap((s) => Object.keys((view.companies[s] as SearchRankingsEntry).rankings)))].sort(compareCodeUnits);
  const column = new Map(countries.map((c, i) => [c, i]));
  const rowBytes = (countries.length + 8) >>> 3;
  const bits = new Uint8Array(slugs.length * rowBytes);
  const encoder = new TextEncoder();
  const texts = slugs.map((slug, i) => {
    const entry = view.companies[slug] as SearchRankingsEntry;
    const set = (c: number) => (bits[i * rowBytes + (c >>> 3)] = (bits[i * rowBytes + (c >>> 3)] as number) | (1 << (c & 7)));
    for (const code of Object.keys(entry.rankings)) set(column.get(code) as number);
    if (rankedIn(entry, null)) set(countries.length);
    return encoder.encode(JSON.stringify(toRecord(entry)));
  });
  const offsets = new Uint32Array(slugs.length + 1);
  texts.forEach((t, i) => (offsets[i + 1] = (offsets[i] as number) + t.byteLength));
  const records = new Uint8Array(offsets[slugs.length] as number);
  texts.forEach((t, i) => records.set(t, offsets[i] as number));
  const pool = new PoolWriter();
  const ranges = pool.ranges(new ArrayStrings(slugs));
  const header = encoder.encode(JSON.stringify({ month: view.month, countries }));
  return writeSections(MAGIC, VERSION, [header, ...pool.poolSections(), ranges, bits, offsets, records]);
}

/** The entries' bytes (the last section): in memory, or in parts read when asked. */
interface Records {
  readonly length: number;
  /** Bytes `from` to `to` of the section; `undefined` while a part holding them is unread. */
  get(from: number, to: number): Uint8Array | undefined;
  /** Reads the parts holding bytes `from` to `to`. */
  load(from: number, to: number): Promise<void>;
}

function inMemory(bytes: Uint8Array): Records {
  return { length: bytes.byteLength, get: (from, to) => bytes.subarray(from, to), load: async () => undefined };
}

/** The section at `at` (`length` bytes) of a file in parts, each part read once, when an entry in it is asked for. */
function inParts(parts: FileParts, at: number, length: number): Records {
  const read = new Map<number, Uint8Array>();
  const start = (n: number): number => (n === 0 ? 0 : (parts.ends[n - 1] as number));
  // the parts holding bytes from..to of the section
  const holding = (from: number, to: number): number[] => {
    const out: number[] = [];
    for (let n = 0; n < parts.ends.length && start(n) < at + to; n++) if ((parts.ends[n] as number) > at + from) out.push(n);
    return out;
  };
  return {
    length,
    get(from, to) {
      const ns = holding(from, to);
      if (ns.some((n) => !read.has(n))) return undefined;
      if (ns.length === 1) return (read.get(ns[0] as number) as Uint8Array).subarray(at + from - start(ns[0] as number), at + to - start(ns[0] as number));
      const out = new Uint8Array(to - from);
      for (const n of ns) {
        const part = read.get(n) as Uint8Array;
        const lo = Math.max(at + from, start(n));
        const hi = Math.min(at + to, start(n) + part.byteLength);
        out.set(part.subarray(lo - start(n), hi - start(n)), lo - at - from);
      }
      return out;
    },
    async load(from, to) {
      await Promise.all(holding(from, to).filter((n) => !read.has(n)).map(async (n) => read.set(n, await parts.read(n))));
    },
  };
}

/** {@link SearchRankings} read in place from the binary form. */
export class BinarySearchRankings implements SearchRankings {
  readonly month: string;
  readonly bytes: number;
  readonly #slugs: Strings;
  readonly #column: Map<string, number>;
  readonly #defaultBit: number;
  readonly #rowBytes: number;
  readonly #bits: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #records: Records;
  readonly #decoder = new TextDecoder();
  readonly #rows = new Map<string, number>();
  readonly #entries = new Map<number, SearchRankingsEntry>();

  /**
   * Over a file kept in parts: reads the parts before the entries, and each entry's part
   * when {@link BinarySearchRankings.prepare} asks for it. Throws as the constructor does.
   */
  static async open(parts: FileParts): Promise<BinarySearchRankings> {
    const first = await parts.read(0);
    const at = new Sections(first, 'search rankings', MAGIC, VERSION, SECTIONS).range(SECTIONS - 1).offset;
    const head = [Promise.resolve(first)];
    for (let n = 1; n < parts.ends.length && (parts.ends[n - 1] as number) < at; n++) head.push(parts.read(n));
    return new BinarySearchRankings(await Promise.all(head), parts);
  }

  /**
   * `bytes`: the file, whole or in the chunks it was cut into; with `parts`, only the chunks
   * before the entries, which are read from `parts`. Throws when it is not the binary form or
   * its parts do not fit.
   */
  constructor(bytes: FileBytes, parts?: FileParts) {
    const file = new Sections(bytes, 'search rankings', MAGIC, VERSION, SECTIONS);
    this.bytes = file.byteLength;
    const header = JSON.parse(this.#decoder.decode(file.get(0, Uint8Array))) as { month: unknown; countries: unknown };
    if (typeof header.month !== 'string' || !Array.isArray(header.countries)) throw file.error('bad header');
    const countries = header.countries as string[];
    this.month = header.month;
    const wide = file.get(2, Uint16Array);
    this.#slugs = new PoolStrings(wide.length > 0 ? wide : file.get(1, Uint8Array), file.get(3, Uint32Array));
    this.#column = new Map(countries.map((c, i) => [c, i]));
    this.#defaultBit = countries.length;
    this.#rowBytes = (countries.length + 8) >>> 3;
    this.#bits = file.get(4, Uint8Array);
    this.#offsets = file.get(5, Uint32Array);
    const records = file.range(SECTIONS - 1);
    if (parts && records.offset + records.length > (parts.ends.at(-1) ?? 0)) throw file.error(`section ${SECTIONS - 1} out of bounds`);
    this.#records = parts ? inParts(parts, records.offset, records.length) : inMemory(file.get(SECTIONS - 1, Uint8Array));
    const n = this.#slugs.length;
    if (this.#bits.length !== n * this.#rowBytes || this.#offsets.length !== n + 1 || this.#offsets[n] !== this.#records.length) throw file.error('sections do not fit together');
  }

  /** The company's row (binary search over the sorted slugs), -1 when absent. */
  #row(slug: string): number {
    let row = this.#rows.get(slug);
    if (row !== undefined) return row;
    let lo = 0;
    let hi = this.#slugs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#slugs.get(mid) < slug) lo = mid + 1;
      else hi = mid;
    }
    row = lo < this.#slugs.length && this.#slugs.get(lo) === slug ? lo : -1;
    this.#rows.set(slug, row);
    return row;
  }

  async prepare(slugs: readonly string[]): Promise<void> {
    const rows = slugs.map((slug) => this.#row(slug)).filter((row) => row >= 0 && !this.#entries.has(row));
    await Promise.all(rows.map((row) => this.#records.load(this.#offsets[row] as number, this.#offsets[row + 1] as number)));
  }

  company(slug: string): SearchRankingsEntry | undefined {
    const row = this.#row(slug);
    if (row < 0) return undefined;
    let entry = this.#entries.get(row);
    if (!entry) {
      const bytes = this.#records.get(this.#offsets[row] as number, this.#offsets[row + 1] as number);
      if (!bytes) throw new Error(`search rankings: the entry of ${slug} is not read yet (prepare it first)`);
      entry = fromRecord(JSON.parse(this.#decoder.decode(bytes)) as EntryRecord);
      this.#entries.set(row, entry);
    }
    return entry;
  }

  ranked(slug: string, country: string | null): boolean {
    const row = this.#row(slug);
    if (row < 0) return false;
    const bit = country === null ? this.#defaultBit : this.#column.get(country);
    if (bit === undefined) return false;
    return (((this.#bits[row * this.#rowBytes + (bit >>> 3)] as number) >>> (bit & 7)) & 1) === 1;
  }
}
