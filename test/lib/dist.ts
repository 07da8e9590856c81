/**
 * The built site the HTTP and workerd suites run over: the one shared test build of
 * `build-once.ts` (pages included), or the folder named by `EVI_TEST_DIST`, so that
 * the deploy workflow tests the very `dist/` it ships.
 */
import { resolve } from 'node:path';
import { ROOT, buildSite } from './build-once.ts';

export async function builtDist(): Promise<string> {
  const given = process.env.EVI_TEST_DIST;
  return given ? resolve(ROOT, given) : buildSite();
}
