/**
 * The figures in docs/performance.md are written by the bench commands themselves: each
 * owns one section between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` and replaces
 * it on every run, so the document holds the latest figures only (history lives in git).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';

/** docs/performance.md of this checkout. */
export const PERF_DOC = resolve(import.meta.dirname, '../../docs/performance.md');

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
}

export function currentMachine(): Machine {
  const list = cpus();
  return { cpu: list[0]?.model.trim() || 'unknown CPU', cores: list.length, node: process.version };
}

/** The machine a section was measured on, without a date: "Machine: Intel(R) Xeon(R) Processor, 2 cores, Node v20.20.2." */
export function machineLine(m: Machine = currentMachine()): string {
  return `Machine: ${m.cpu}, ${m.cores} ${m.cores === 1 ? 'core' : 'cores'}, Node ${m.node}.`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `doc` with the section NAME replaced by `body` and the machine line. A section the
 * document does not have yet is added at its end; a marker found twice, or an end marker
 * before its start, is an error rather than a guess.
 */
export function replaceBenchSection(doc: string, name: string, body: string, machine: Machine = currentMachine()): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bench section name "${name}": use a-z, 0-9 and -`);
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const count = (marker: string) => doc.match(new RegExp(escape(marker), 'g'))?.length ?? 0;
  const [opens, closes] = [count(open), count(close)];
  const section = `${open}\n${body.trim()}\n\n${machineLine(machine)}\n${close}`;
  if (opens === 0 && closes === 0) return `${doc.trimEnd()}\n\n${section}\n`;
  if (opens !== 1 || closes !== 1) throw new Error(`${open} and ${close} must each appear once (found ${opens} and ${closes})`);
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (end < start) throw new Error(`${close} comes before ${open}`);
  return doc.slice(0, start) + section + doc.slice(end + close.length);
}

/** Rewrites the section NAME of docs/performance.md (or `file`) and says so on stderr. */
export function writeBenchSection(name: string, body: string, file: string = PERF_DOC): void {
  writeFileSync(file, replaceBenchSection(readFileSync(file, 'utf8'), name, body));
  console.error(`wrote the "${name}" section of ${file}`);
}
