import { describe, expect, it } from 'vitest';
import { chromeOf, outFileOf, withChrome } from './page-chrome.ts';

const astro = '<!DOCTYPE html><html><head><title>A</title><link rel="stylesheet" href="/_astro/site.x1.css"></head><body><h1>A</h1></body></html>';
const own = '<!DOCTYPE html><html><head><title>A</title></head><body><h1>A</h1></body></html>';

describe('page chrome', () => {
  it('takes what Astro adds before </head> and puts it into another page of the route', () => {
    const chrome = chromeOf(astro, own, '/a/');
    expect(chrome).toBe('<link rel="stylesheet" href="/_astro/site.x1.css">');
    const other = Buffer.from('<!DOCTYPE html><html><head><title>B – é</title></head><body>B</body></html>');
    expect(withChrome(other, Buffer.from(chrome)).toString()).toBe(`<!DOCTYPE html><html><head><title>B – é</title>${chrome}</head><body>B</body></html>`);
    expect(withChrome(Buffer.from(own), Buffer.from(chrome)).toString()).toBe(astro);
  });

  it('stops when the pages differ anywhere else (a script in the body, another text)', () => {
    expect(() => chromeOf(astro.replace('<h1>', '<script src="/_astro/x.js"></script><h1>'), own, '/a/')).toThrow(/differs from Astro's/);
    expect(() => chromeOf(astro.replace('<title>A', '<title>Z'), own, '/a/')).toThrow(/differs from Astro's/);
    expect(() => chromeOf(astro, own.replace('</head>', ''), '/a/')).toThrow(/differs from Astro's/);
  });

  it('writes a page where Astro does (build.format directory) and refuses parameters it cannot place', () => {
    expect(outFileOf('/company/[slug]', { slug: 'acme-inc' })).toBe('company/acme-inc/index.html');
    expect(outFileOf('/leaderboards/[country]/[industry]', { country: 'us', industry: 'all' })).toBe('leaderboards/us/all/index.html');
    expect(() => outFileOf('/company/[slug]', { slug: '../x' })).toThrow(/unsupported/);
    expect(() => outFileOf('/company/[slug]', { slug: '..' })).toThrow(/unsupported/);
    expect(() => outFileOf('/company/[slug]', {})).toThrow(/unsupported/);
  });
});
