/**
 * The OpenAPI document of the built sample site, linted by Spectral (the CLI, as API
 * teams run it, once with both rulesets): `spectral:oas` with no error and no warning, and the OWASP API
 * Security ruleset with no error except the two rules that do not apply here:
 * - owasp:api4:2023-rate-limit asks for rate-limit headers on every 2xx/4xx; success
 *   answers are shared-cacheable and deliberately carry no client's quota (README,
 *   "Cache-safe headers"), which comes on the 429;
 * - owasp:api8:2023-no-server-http: the test build's origin is http://localhost; a
 *   deployment sets SITE_URL to its https origin, and the servers entry follows it.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtDist } from './lib/dist.ts';

const root = resolve(import.meta.dirname, '..');
const NOT_APPLICABLE = new Set(['owasp:api4:2023-rate-limit', 'owasp:api8:2023-no-server-http']);
let doc: string;

interface Finding {
  code: string;
  severity: number;
  path: string[];
}
/** What both rulesets find, in one run of the CLI: the OWASP rules' codes begin with `owasp:`. */
let findings: Finding[];

function lint(ruleset: string): Finding[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [join(root, 'node_modules/@stoplight/spectral-cli/dist/index.js'), 'lint', doc, '--ruleset', join(root, 'test/fixtures/spectral', ruleset), '--format', 'json', '--quiet'], { encoding: 'utf8', cwd: root, maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    // Spectral exits 1 when it finds errors; its JSON is on stdout all the same.
    out = (e as { stdout: string }).stdout;
  }
  return JSON.parse(out.slice(out.indexOf('['))) as Finding[];
}

beforeAll(async () => {
  doc = join(await builtDist(), 'api/v1/openapi.json');
  findings = lint('rulesets.yaml');
});

describe('Spectral', () => {
  it('spectral:oas: no error, no warning', () => {
    const found = findings.filter((r) => !r.code.startsWith('owasp:') && r.severity <= 1);
    expect(found.map((r) => `${r.code} ${r.path.join('.')}`)).toEqual([]);
  });

  it('OWASP API Security ruleset: no error that applies to a public read-only API', () => {
    const owasp = findings.filter((r) => r.code.startsWith('owasp:'));
    // The ruleset ran: it finds the rate-limit headers the success answers leave out on purpose.
    expect(owasp.map((r) => r.code)).toContain('owasp:api4:2023-rate-limit');
    const errors = owasp.filter((r) => r.severity === 0 && !NOT_APPLICABLE.has(r.code));
    expect(errors.map((r) => `${r.code} ${r.path.join('.')}`)).toEqual([]);
  });
});
