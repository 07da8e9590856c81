import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { machineLine, replaceBenchSection, writeBenchSection } from './perf-doc.ts';

const MACHINE = { cpu: 'Test CPU 3000', cores: 2, node: 'v20.0.0' };
const TABLE = '| run | wall |\n|---|---|\n| cold | 55.8 s |';
const DOC = [
  '# Performance',
  '',
  '## Build',
  '<!-- bench:build -->',
  '| run | wall |',
  '|---|---|',
  '| cold | 99.9 s |',
  '',
  'Machine: Old CPU, 4 cores, Node v18.0.0.',
  '<!-- /bench:build -->',
  '',
  '## Serve',
  '<!-- bench:serve -->',
  'serve figures',
  '<!-- /bench:serve -->',
  '',
  'Text after.',
  '',
].join('\n');

describe('replaceBenchSection', () => {
  it('replaces only the named section, with the table and the machine line', () => {
    const out = replaceBenchSection(DOC, 'build', TABLE, MACHINE);
    expect(out).toContain(`<!-- bench:build -->\n${TABLE}\n\nMachine: Test CPU 3000, 2 cores, Node v20.0.0.\n<!-- /bench:build -->`);
    expect(out).not.toContain('99.9 s');
    expect(out).not.toContain('Old CPU');
    // everything outside the markers is kept byte for byte
    const outside = (s: string) => s.slice(0, s.indexOf('<!-- bench:build -->')) + s.slice(s.indexOf('<!-- /bench:build -->'));
    expect(outside(out)).toBe(outside(DOC));
  });

  it('gives the same document when run twice (a bench run replaces, never appends)', () => {
    const once = replaceBenchSection(DOC, 'serve', TABLE, MACHINE);
    expect(replaceBenchSection(once, 'serve', TABLE, MACHINE)).toBe(once);
    expect(once.match(/<!-- bench:serve -->/g)).toHaveLength(1);
  });

  it('adds a section the document does not have yet at its end', () => {
    const out = replaceBenchSection(DOC, 'worker', TABLE, MACHINE);
    expect(out.startsWith(DOC.trimEnd())).toBe(true);
    expect(out.endsWith(`<!-- bench:worker -->\n${TABLE}\n\n${machineLine(MACHINE)}\n<!-- /bench:worker -->\n`)).toBe(true);
  });

  it('refuses markers it cannot read unambiguously', () => {
    expect(() => replaceBenchSection(`${DOC}\n<!-- bench:build -->\n`, 'build', TABLE, MACHINE)).toThrow(/once/);
    expect(() => replaceBenchSection('<!-- /bench:x -->\n<!-- bench:x -->\n', 'x', TABLE, MACHINE)).toThrow(/before/);
    expect(() => replaceBenchSection('<!-- bench:x -->\n', 'x', TABLE, MACHINE)).toThrow(/once/);
    expect(() => replaceBenchSection(DOC, 'Build figures', TABLE, MACHINE)).toThrow(/name/);
  });

  it('writes no date into the machine line', () => {
    expect(machineLine()).toMatch(/^Machine: .+, \d+ cores?, Node v\d+\.\d+\.\d+\.$/);
    expect(machineLine()).not.toMatch(/\d{4}-\d{2}-\d{2}|UTC/);
  });
});

describe('writeBenchSection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'perf-doc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rewrites the section in the file', () => {
    const file = join(dir, 'performance.md');
    writeFileSync(file, DOC);
    writeBenchSection('serve', TABLE, file);
    const out = readFileSync(file, 'utf8');
    expect(out).toContain(`<!-- bench:serve -->\n${TABLE}\n`);
    expect(out).not.toContain('serve figures');
    expect(out).toContain('| cold | 99.9 s |');
  });
});
