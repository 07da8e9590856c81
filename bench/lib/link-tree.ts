import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { identityOf } from '../../src/pipeline/cache/own-changes.ts';
import { JsonWriter } from '../../src/pipeline/write/write-json.ts';

/**
 * A copy of the folder `from` at `to` whose files are hard links to the same files, made
 * by the build's own `JsonWriter.linkFrom` (a copy where a link cannot be made: another
 * file system, or links not allowed). For a build's cache, which never writes a file in
 * place (a new entry is written beside and renamed, an old one removed), the links are as
 * good as a copy: no build changes the bytes behind the other name. And no bytes are
 * written, so the build timed next does not start beside gigabytes of page cache just
 * written. Returns the number of files.
 */
export function linkTree(from: string, to: string): number {
  const out = new JsonWriter(to);
  for (const e of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = join(e.parentPath, e.name);
    out.linkFrom(relative(from, file), file, 0);
  }
  return out.files;
}

/**
 * The cache at `dir` as the build that made it left it: each folder entry's files recorded
 * with the identities they have now. Linking a snapshot moves the change time of every file
 * it shares, which a build takes for an edit (it hashes the file again); an operator's
 * monthly build finds them as its previous build recorded them. Call it right before the
 * timed run, after every link of the files it shares.
 */
export function asLeftByItsBuild(dir: string): void {
  for (const name of readdirSync(dir)) {
    const index = join(dir, name, '.entry.json');
    if (!existsSync(index)) continue;
    const entry = JSON.parse(readFileSync(index, 'utf8')) as { files: { path: string; stat?: string }[] };
    for (const f of entry.files) f.stat = identityOf(statSync(join(dir, name, f.path), { bigint: true }));
    writeFileSync(index, JSON.stringify(entry));
  }
}
