import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS, toolUrl } from '../../mcp/tools.ts';
import { parseMcpArgs } from './mcp-stdio.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('parseMcpArgs', () => {
  it('defaults to ./dist, or DIST_DIR, or EVI_API_URL when set', () => {
    expect(parseMcpArgs([], {})).toEqual({ dist: 'dist', url: null });
    expect(parseMcpArgs([], { DIST_DIR: 'site' })).toEqual({ dist: 'site', url: null });
    expect(parseMcpArgs([], { EVI_DIST: 'built', DIST_DIR: 'site' })).toEqual({ dist: 'built', url: null });
    expect(parseMcpArgs([], { EVI_API_URL: 'https://evi.example.org' })).toEqual({ dist: null, url: 'https://evi.example.org' });
    expect(parseMcpArgs(['--dist', 'out'], { EVI_API_URL: 'https://evi.example.org' })).toEqual({ dist: 'out', url: null });
  });

  it('accepts a site base or an API base, with or without a trailing slash', () => {
    for (const given of ['https://evi.example.org/', 'https://evi.example.org/api', 'https://evi.example.org/api/v1/']) {
      expect(parseMcpArgs(['--url', given], {}).url).toBe('https://evi.example.org');
    }
    expect(parseMcpArgs(['--url=https://example.org/evi/api/v1'], {}).url).toBe('https://example.org/evi');
  });

  it('refuses unknown arguments, missing values, non-http URLs and both sources at once', () => {
    expect(() => parseMcpArgs(['--port', '1'], {})).toThrow(/unknown argument "--port"/);
    expect(() => parseMcpArgs(['--dist'], {})).toThrow(/--dist needs a value/);
    expect(() => parseMcpArgs(['--url', 'ftp://example.org'], {})).toThrow(/not an http/);
    expect(() => parseMcpArgs(['--url', 'not a url'], {})).toThrow(/not a URL/);
    expect(() => parseMcpArgs(['--dist', 'd', '--url', 'https://example.org'], {})).toThrow(/not both/);
  });
});

describe('toolUrl', () => {
  it('puts path arguments into the path (encoded) and the rest into the query as text', () => {
    expect(String(toolUrl(tool('get_leaders'), { industry: 'Food & Drink', country: 'de', limit: 3 }, 'http://h'))).toBe('http://h/api/v1/rankings/Food%20%26%20Drink/de?limit=3');
    expect(String(toolUrl(tool('get_company'), { slug: 'a/../b', country: 'uk' }, 'https://x.org/base/'))).toBe('https://x.org/base/api/v1/company/a%2F..%2Fb?country=uk');
    expect(String(toolUrl(tool('search_companies'), { q: 'jobs at acme', limit: 2, country: undefined }, 'http://h'))).toBe('http://h/api/v1/search?q=jobs+at+acme&limit=2');
    expect(String(toolUrl(tool('compare_companies'), { companies: ['a', 'b'] }, 'http://h'))).toBe('http://h/api/v1/compare?companies=a%2Cb');
    expect(String(toolUrl(tool('get_index'), {}, 'http://h'))).toBe('http://h/api/v1');
  });

  it('refuses a call without a path argument rather than asking for another path', () => {
    expect(() => toolUrl(tool('get_leaders'), { industry: 'retail', country: ' ' }, 'http://h')).toThrow('Missing required argument: country.');
    expect(() => toolUrl(tool('get_company'), {}, 'http://h')).toThrow('Missing required argument: slug.');
  });
});

describe('package entry points', () => {
  it('the bin and the npm script start the MCP command', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    const bin = pkg.bin['employer-visibility-index'];
    expect(bin).toBeDefined();
    expect(existsSync(join(ROOT, bin!))).toBe(true);
    expect(readFileSync(join(ROOT, bin!), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(pkg.scripts.mcp).toBe('tsx src/adapters/node/cli.ts mcp');
  });
});
