/**
 * A parsed month's cache entry (caches.ts): its {@link MonthAggregate} as bytes, written by
 * the parser worker and read back for scoring.
 *
 * Layout: a 32-bit length, then a JSON head of that many bytes (the counts, the research
 * models, the latest date, every distinct name string once, and per context its industry,
 * country, combos, answer count and name count), zero bytes up to a multiple of 4, then
 * 32-bit integers in the machine's byte order (the head says which): per context, its
 * answers, then per name the index of its folded name and of its spelling in the head's
 * strings, its list's length and the list.
 *
 * A reference month's entry holds 1.47M numbers and 130,634 names drawn from 40,998 distinct
 * strings. As JSON (before) it was 10.4 MiB, 0.31 s of CPU to make and hash and 0.37 s to
 * read back; so, 8.2 MiB, 0.26 s and 0.13 s (medians of nine runs, BENCHMARKS.md, "Build:
 * the parsed month's cache entry as bytes").
 */
import type { ContextAggregate, MonthAggregate } from '../core/aggregate.ts';

/** Whether this machine stores integers least significant byte first (the head records it; a reader on the other order recomputes). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The head: every field of the aggregate but the contexts' lists. */
interface Head extends Omit<MonthAggregate, 'contexts'> {
  littleEndian: boolean;
  strings: string[];
  /** [industry, country, combos, answers, names] */
  contexts: [string, string, [string, string][], number, number][];
}

const pad4 = (n: number) => (n + 3) & ~3;

export function packAggregate(agg: MonthAggregate): Buffer {
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
  let n = 0;
  for (const c of agg.contexts) {
    n += c.answers.length + 3 * c.names.length;
    for (const name of c.names) n += name[2].length;
  }
  const ints = new Int32Array(n);
  let k = 0;
  const contexts: Head['contexts'] = agg.contexts.map((c) => {
    ints.set(c.answers, k);
    k += c.answers.length;
    for (const [folded, spelling, list] of c.names) {
      ints[k++] = id(folded);
      ints[k++] = id(spelling);
      ints[k++] = list.length;
      ints.set(list, k);
      k += list.length;
    }
    return [c.industry, c.country, c.combos, c.answers.length, c.names.length];
  });
  const { contexts: _, ...rest } = agg;
  const head: Head = { ...rest, littleEndian: LITTLE_ENDIAN, strings, contexts };
  const json = Buffer.from(JSON.stringify(head), 'utf8');
  const at = 4 + pad4(json.length);
  const out = Buffer.alloc(at + ints.byteLength);
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  out.set(new Uint8Array(ints.buffer, 0, ints.byteLength), at);
  return out;
}

/** Throws when the bytes are not such an entry (or were written on a machine of the other byte order). */
export function unpackAggregate(bytes: Uint8Array): MonthAggregate {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 4) throw new Error('too short');
  const headBytes = buf.readUInt32LE(0);
  const at = 4 + pad4(headBytes);
  if (at > buf.length || (buf.length - at) % 4 !== 0) throw new Error('lengths do not add up');
  const { littleEndian, strings, contexts: heads, ...rest } = JSON.parse(buf.toString('utf8', 4, 4 + headBytes)) as Head;
  if (littleEndian !== LITTLE_ENDIAN) throw new Error('written in the other byte order');
  // An Int32Array needs its offset aligned: a file read into a Buffer of its own is; a slice of one may not be.
  const start = buf.byteOffset + at;
  const ints = start % 4 === 0 ? new Int32Array(buf.buffer, start, (buf.length - at) >> 2) : new Int32Array(buf.buffer.slice(start, buf.byteOffset + buf.length));
  let k = 0;
  const list = (n: number): number[] => {
    if (n < 0 || k + n > ints.length) throw new Error('a list runs past the end');
    const a: number[] = new Array(n);
    for (let i = 0; i < n; i++) a[i] = ints[k++]!;
    return a;
  };
  const string = (i: number): string => {
    const s = strings[i];
    if (s === undefined) throw new Error(`no string ${i}`);
    return s;
  };
  const contexts = heads.map(([industry, country, combos, answerCount, nameCount]): ContextAggregate => {
    const answers = list(answerCount);
    const names: ContextAggregate['names'] = new Array(nameCount);
    for (let j = 0; j < nameCount; j++) {
      if (k + 3 > ints.length) throw new Error('a name runs past the end');
      const folded = string(ints[k++]!);
      const spelling = string(ints[k++]!);
      names[j] = [folded, spelling, list(ints[k++]!)];
    }
    return { industry, country, combos, answers, names };
  });
  if (k !== ints.length) throw new Error(`${ints.length - k} integers left over`);
  return { ...rest, contexts };
}
