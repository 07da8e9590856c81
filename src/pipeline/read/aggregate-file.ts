/**
 * A parsed month's cache entry (caches.ts): its {@link MonthAggregate} as bytes, written by the
 * parser worker and read back for scoring; smaller and far quicker to read than JSON.
 *
 * Two sections of the binary views' container (src/core/search/sections.ts, magic `EVIM`): a
 * JSON head (the counts, every distinct name string once, and per context its fields and
 * counts), then 32-bit integers: per context its answers, then per name its folded name's and
 * spelling's string indexes, its list's length and the list. A reader refuses anything else.
 */
import { aggregateOf, columnsOf, type MonthAggregate, type MonthColumns } from '../../core/aggregate.ts';
import { Sections, writeSections } from '../../core/search/sections.ts';

const MAGIC = 'EVIM';
const VERSION = 1;

/** The head: every field of the aggregate but the contexts' lists. */
interface Head extends Omit<MonthAggregate, 'contexts'> {
  strings: string[];
  /** [industry, country, combos, answers, names] */
  contexts: [string, string, [string, string][], number, number][];
}

export function packAggregate(agg: MonthAggregate): Uint8Array {
  return packColumns(columnsOf(agg));
}

/** A month's columns as an entry: the same bytes as {@link packAggregate} of its aggregate. */
export function packColumns(cols: MonthColumns): Uint8Array {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (s: string) => {
    let v = ids.get(s);
    if (v === undefined) {
      v = strings.length;
      strings.push(s);
      ids.set(s, v);
    }
    return v;
  };
  const { contexts: all, strings: names, folded, spelling, start, end, items, ...rest } = cols;
  let n = 0;
  for (const c of all) {
    n += c.answers.length + 3 * c.names.length;
    for (const m of c.names) n += end[m]! - start[m]!;
  }
  const ints = new Int32Array(n);
  let k = 0;
  const contexts: Head['contexts'] = all.map((c) => {
    ints.set(c.answers, k);
    k += c.answers.length;
    for (const m of c.names) {
      ints[k++] = id(names[folded[m]!]!);
      ints[k++] = id(names[spelling[m]!]!);
      const list = items.subarray(start[m]!, end[m]!);
      ints[k++] = list.length;
      ints.set(list, k);
      k += list.length;
    }
    return [c.industry, c.country, c.combos, c.answers.length, c.names.length];
  });
  const head: Head = { ...rest, strings, contexts };
  return writeSections(MAGIC, VERSION, [Buffer.from(JSON.stringify(head), 'utf8'), ints]);
}

/** Throws when the bytes are not such an entry. */
export function unpackAggregate(bytes: Uint8Array): MonthAggregate {
  return aggregateOf(unpackColumns(bytes));
}

/** The month's columns of an entry; `items` is a view of `bytes`. Throws when the bytes are not such an entry. */
export function unpackColumns(bytes: Uint8Array): MonthColumns {
  const file = new Sections(bytes, 'parsed month', MAGIC, VERSION, 2);
  const headBytes = file.get(0, Uint8Array);
  const ints = file.get(1, Int32Array);
  if (file.size !== bytes.byteLength) throw file.error(`${bytes.byteLength} bytes, its sections make ${file.size}`);
  const { strings, contexts: heads, ...rest } = JSON.parse(Buffer.from(headBytes.buffer, headBytes.byteOffset, headBytes.byteLength).toString('utf8')) as Head;
  // Each name takes three integers at least.
  const count = heads.reduce((sum, h) => sum + h[4], 0);
  if (!(count >= 0 && 3 * count <= ints.length)) throw file.error('a name runs past the end');
  const folded = new Int32Array(count);
  const spelling = new Int32Array(count);
  const start = new Int32Array(count);
  const end = new Int32Array(count);
  let k = 0;
  let m = 0;
  const room = (n: number) => {
    if (!(n >= 0 && k + n <= ints.length)) throw file.error('a list runs past the end');
  };
  const string = (i: number): number => {
    if (strings[i] === undefined) throw file.error(`no string ${i}`);
    return i;
  };
  const contexts = heads.map(([industry, country, combos, answerCount, nameCount]) => {
    room(answerCount);
    const answers: number[] = new Array(answerCount);
    for (let i = 0; i < answerCount; i++) answers[i] = ints[k++]!;
    const names = new Int32Array(nameCount);
    for (let j = 0; j < nameCount; j++) {
      if (k + 3 > ints.length) throw file.error('a name runs past the end');
      folded[m] = string(ints[k++]!);
      spelling[m] = string(ints[k++]!);
      const n = ints[k++]!;
      room(n);
      start[m] = k;
      end[m] = k += n;
      names[j] = m++;
    }
    return { industry, country, combos, answers, names };
  });
  if (k !== ints.length) throw file.error(`${ints.length - k} integers left over`);
  return { ...rest, contexts, strings, folded, spelling, start, end, items: ints };
}
