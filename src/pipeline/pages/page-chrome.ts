/**
 * What the page workers need to write a page as Astro's pipeline does: where it goes, and what
 * the pipeline adds that the container does not know (the stylesheet links before `</head>`).
 */
import { join } from 'node:path';

export type StaticPath = { params: Record<string, string | undefined>; props?: Record<string, unknown> };

const HEAD_END = '</head>';

/** `/company/[slug]` with `{ slug: 'x' }` -> `company/x/index.html` (build.format 'directory'). */
export function outFileOf(url: string, params: StaticPath['params']): string {
  const path = url.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    const value = params[name];
    if (name.startsWith('...') || value === undefined || value.includes('/') || value === '' || value === '.' || value === '..') throw new Error(`page workers: unsupported parameter ${name} in ${url}`);
    return value;
  });
  return join(path.replace(/^\/+/, ''), 'index.html');
}

/** What Astro's pipeline adds before `</head>` to the container's page (`own`), from Astro's file of it. */
export function chromeOf(astro: string, own: string, where: string): string {
  const at = own.indexOf(HEAD_END);
  const head = own.slice(0, at);
  const tail = own.slice(at);
  if (at < 0 || !astro.startsWith(head) || !astro.endsWith(tail) || astro.length < own.length) {
    throw new Error(`page workers: the container's ${where} differs from Astro's beyond the head's links; build with EVI_PAGE_WORKERS=0 and report it`);
  }
  return astro.slice(head.length, astro.length - tail.length);
}

/** `page` with `chrome` before its first `</head>`, as pieces to write in turn (no copy). */
export const chromeParts = (page: Buffer, chrome: Buffer): Buffer[] => {
  const at = page.indexOf(HEAD_END);
  return at < 0 || chrome.length === 0 ? [page] : [page.subarray(0, at), chrome, page.subarray(at)];
};

/** `page` with `chrome` before its first `</head>`, as bytes. */
export const withChrome = (page: Buffer, chrome: Buffer): Buffer => Buffer.concat(chromeParts(page, chrome));
