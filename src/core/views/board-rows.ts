/**
 * A leaderboard as the shapers read it: its facts, its rows by position, and its rows' order
 * for each `sort`. Two forms: the parsed JSON view (`BoardView`), and the binary form of an
 * overall board (`.../all.bin`), read in place so that a request parses one page, not the board.
 *
 * Binary layout: the container of `../search/sections.ts` (magic `EVBD`): a JSON header (the
 * view without its rows), the rows' byte offsets (u32, rows + 1), the rows' JSON text, then per
 * sort of {@link SORTED} the row positions (u32). The orders come from {@link sortOrder}, which
 * the JSON form sorts with at request time, so both forms answer the same bytes.
 */
import type { Sort } from '../schemas/responses.ts';
import { Sections, writeSections } from '../search/sections.ts';
import { compareNames } from '../text.ts';
import type { BoardRow, BoardView } from './layout.ts';

/** The facts of a board: the view without its rows. */
export type BoardFacts = Omit<BoardView, 'rows'>;

export interface BoardRows {
  readonly facts: BoardFacts;
  readonly length: number;
  /** The row at rank `i + 1`. */
  row(i: number): BoardRow;
  /** Row positions in the order of `sort`; `null` for rank order (`rank`, `score`). */
  order(sort: Sort): ArrayLike<number> | null;
}

/** The sorts whose order differs from rank order, stored in the binary form. */
export const SORTED = ['mentions', 'name', 'change'] as const satisfies readonly Sort[];

const rankChange = (row: BoardRow, i: number): number | null => (row[5] === null ? null : row[5] - (i + 1));

/**
 * data-and-rules §3 `sort`: the row positions in that order (ties fall back to rank); `null`
 * for rank order. `nameRank` (the build's): each row's place in the registry's name order
 * (`Company.nameOrder`), so that `name` compares integers instead of calling the collator.
 */
export function sortOrder(rows: readonly BoardRow[], sort: Sort, nameRank?: (slug: string) => number): number[] | null {
  if (sort === 'rank' || sort === 'score') return null;
  const order = rows.map((_, i) => i);
  switch (sort) {
    case 'mentions':
      return order.sort((a, b) => rows[b]![4] - rows[a]![4] || a - b);
    case 'name':
      if (nameRank) {
        const place = rows.map((row) => nameRank(row[0]));
        return order.sort((a, b) => place[a]! - place[b]!);
      }
      return order.sort((a, b) => {
        const [sa, na] = rows[a]!;
        const [sb, nb] = rows[b]!;
        return compareNames(na, nb) || (sa < sb ? -1 : sa > sb ? 1 : 0);
      });
    case 'change':
      return order.sort((a, b) => {
        const ca = rankChange(rows[a]!, a);
        const cb = rankChange(rows[b]!, b);
        if (ca === null || cb === null) {
          if (ca !== cb) return ca === null ? 1 : -1;
          return a - b;
        }
        return cb - ca || a - b;
      });
  }
}

function factsOf(view: BoardView): BoardFacts {
  const { rows: _, ...facts } = view;
  return facts;
}

/** {@link BoardRows} over the parsed JSON view. */
export function jsonBoard(view: BoardView): BoardRows {
  return {
    facts: factsOf(view),
    length: view.rows.length,
    row: (i) => view.rows[i]!,
    order: (sort) => sortOrder(view.rows, sort),
  };
}

const MAGIC = 'EVBD';
const VERSION = 1;
const SECTIONS = 3 + SORTED.length;

/** The binary form of a board (see the module comment). Deterministic. `nameRank`: as {@link sortOrder}'s. */
export function encodeBoard(view: BoardView, nameRank?: (slug: string) => number): Uint8Array {
  const encoder = new TextEncoder();
  const texts = view.rows.map((row) => encoder.encode(JSON.stringify(row)));
  const offsets = new Uint32Array(texts.length + 1);
  texts.forEach((t, i) => (offsets[i + 1] = offsets[i]! + t.byteLength));
  const records = new Uint8Array(offsets[texts.length]!);
  texts.forEach((t, i) => records.set(t, offsets[i]!));
  const orders = SORTED.map((sort) => Uint32Array.from(sortOrder(view.rows, sort, nameRank)!));
  return writeSections(MAGIC, VERSION, [encoder.encode(JSON.stringify(factsOf(view))), offsets, records, ...orders]);
}

/** {@link BoardRows} read in place from the binary form: a row is parsed when it is asked for. */
export class BinaryBoard implements BoardRows {
  readonly facts: BoardFacts;
  readonly length: number;
  /** Bytes it holds in memory (its file). */
  readonly bytes: number;
  readonly #offsets: Uint32Array;
  readonly #records: Uint8Array;
  readonly #orders: Uint32Array[];
  readonly #decoder = new TextDecoder();

  /** Throws when `bytes` is not the binary form or its parts do not fit. */
  constructor(bytes: Uint8Array) {
    const file = new Sections(bytes, 'board', MAGIC, VERSION, SECTIONS);
    this.bytes = bytes.byteLength;
    this.facts = JSON.parse(this.#decoder.decode(file.get(0, Uint8Array))) as BoardFacts;
    this.#offsets = file.get(1, Uint32Array);
    this.#records = file.get(2, Uint8Array);
    this.length = this.#offsets.length - 1;
    this.#orders = SORTED.map((_, i) => file.get(3 + i, Uint32Array));
    if (this.length < 0 || this.#offsets[this.length] !== this.#records.length || this.#orders.some((o) => o.length !== this.length)) {
      throw file.error('sections do not fit together');
    }
  }

  row(i: number): BoardRow {
    return JSON.parse(this.#decoder.decode(this.#records.subarray(this.#offsets[i], this.#offsets[i + 1]))) as BoardRow;
  }

  order(sort: Sort): Uint32Array | null {
    const i = (SORTED as readonly Sort[]).indexOf(sort);
    return i < 0 ? null : this.#orders[i]!;
  }
}
