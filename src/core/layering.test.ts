import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// src/core runs in Node, workerd and the browser: it imports no runtime, no framework and no upper layer.
const FORBIDDEN = /from ['"](node:|astro|hono|\.\.\/(\.\.\/)?(api|build|server|worker|pages|components|layouts)\/)/;

describe('src/core layering', () => {
  it('imports nothing from node:*, Astro, Hono or the layers above it', () => {
    const dir = import.meta.dirname;
    const offenders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .filter((l) => FORBIDDEN.test(l))
          .map((l) => `${f}: ${l.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
