import { describe, expect, it } from 'vitest';
import { withChrome } from './page-chrome.ts';
import { pageBytes } from './render-share.ts';

// pageBytes (the page workers' encoder, one buffer reused from page to page) against
// what it replaces: Buffer.from of the page, then the chrome put before `</head>`.
describe('pageBytes', () => {
  const chrome = Buffer.from('<link rel="stylesheet" href="/_astro/a.css">');
  const pages = [
    '<!DOCTYPE html><html><head><title>Acme – ▲ 3 “x”</title></head><body>é 😀</body></html>',
    '<html><head></head><body>no chrome here</body></html></head>',
    'no head at all – ▼',
    '',
    // A lone surrogate (encoded as U+FFFD by both) and a pair right before </head>.
    '<head>\ud800 x \ud83d\ude00</head>',
    // Larger than the buffer the thread starts with (256 KiB), in one- and two-byte text.
    `<head><title>big</title></head><body>${'▲ Acme “x” '.repeat(40_000)}</body>`,
    `<head></head>${'a'.repeat(300_000)}`,
  ];

  it('gives the bytes of Buffer.from with the chrome before the first </head>, page after page', () => {
    for (const page of [...pages, ...pages.reverse()]) {
      expect(Buffer.compare(pageBytes(page, chrome), withChrome(Buffer.from(page), chrome))).toBe(0);
      expect(Buffer.compare(pageBytes(page, Buffer.alloc(0)), Buffer.from(page))).toBe(0);
    }
  });
});
