/**
 * npm run build (scripts/build.mjs runs this module from its bundle). Environment:
 * EVI_DATA_DIR (data), EVI_OUT_DIR (dist), EVI_CACHE_DIR (.cache/months; "off" disables),
 * SITE_URL, SOURCE_DATE_EPOCH, EVI_PAGES=0 (views and JSON only), EVI_DEPLOY (default node),
 * EVI_MAX_FILES (20000: above it a site that runs the function is packed),
 * EVI_ALLOW_OLDER_MONTH=1, EVI_DEBUG=1 (a failed build prints its stack trace).
 */
import { resolve } from 'node:path';
import { ROOT } from '../src/pipeline/workers/bundle-file.mjs';
import { runBuild } from '../src/pipeline/run-build.ts';
import { DataError, formatIssue } from '../src/core/data-error.ts';
import { PublishGateError } from '../src/pipeline/release/gate.ts';
import { stopMessage } from '../src/pipeline/stop-message.ts';
import { DEFAULT_DEPLOY, DEPLOY_TARGETS, type DeployTarget } from '../src/core/policy.ts';

// The project's folder, from a module of src/pipeline/workers: this module also runs from its bundle.
const root = resolve(ROOT);
const env = process.env;
const epoch = env.SOURCE_DATE_EPOCH ? Number(env.SOURCE_DATE_EPOCH) : undefined;
if (epoch !== undefined && !Number.isInteger(epoch)) {
  console.error(`SOURCE_DATE_EPOCH must be an integer number of seconds, got "${env.SOURCE_DATE_EPOCH}"`);
  process.exit(1);
}
const deploy = (env.EVI_DEPLOY?.trim() || DEFAULT_DEPLOY) as DeployTarget;
if (!DEPLOY_TARGETS.includes(deploy)) {
  console.error(`EVI_DEPLOY must be one of ${DEPLOY_TARGETS.join(', ')}, got "${env.EVI_DEPLOY}"`);
  process.exit(1);
}
// Empty is the default too (it would otherwise resolve to the current folder).
const dataDir = resolve(env.EVI_DATA_DIR || 'data');
const cache = env.EVI_CACHE_DIR || '.cache/months';
const cacheDir = cache === 'off' ? null : resolve(cache);
// Unset SITE_URL: the local server `npm start` will run, on its PORT and HOST.
const localHost = env.HOST && !['0.0.0.0', '::', '127.0.0.1'].includes(env.HOST) ? env.HOST : 'localhost';
const siteUrl = (env.SITE_URL?.trim() || `http://${localHost}:${env.PORT?.trim() || 4321}`).replace(/\/+$/, '');
if (!env.SITE_URL?.trim()) console.error(`SITE_URL is not set: links point at ${siteUrl}, right for this machine only. Set SITE_URL to the public origin for any deployment.`);
const workers = env.EVI_WORKERS ? Number(env.EVI_WORKERS) : undefined;

function maxFiles(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n > 0) return n;
  console.error(`EVI_MAX_FILES must be a positive whole number of files, got "${value}"`);
  process.exit(2);
}
const t0 = performance.now();
const stamp = () => `${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`;
try {
  const { report, seconds, cacheHits } = await runBuild({
    root,
    dataDir,
    outDir: resolve(env.EVI_OUT_DIR || 'dist'),
    cacheDir,
    siteUrl,
    deploy,
    sourceDateEpoch: epoch,
    pages: env.EVI_PAGES !== '0',
    workers,
    allowOlder: env.EVI_ALLOW_OLDER_MONTH === '1',
    ...(env.EVI_MAX_FILES ? { maxFiles: maxFiles(env.EVI_MAX_FILES) } : {}),
    log: (l) => console.error(`${stamp()}  ${l}`),
  });
  const n = (x: number) => x.toLocaleString('en-US');
  const r = report;
  console.error(
    [
      '',
      `Built ${r.dataset.currentMonth} (${r.dataset.months.length} months, ${n(r.dataset.companies)} companies) in ${seconds.toFixed(1)} s; ${cacheHits} month(s) from the cache`,
      `  rows: ${n(r.rows.total)} (${n(r.rows.scored)} scored, ${n(r.rows.research)} research: ${Object.entries(r.researchModels).map(([m, c]) => `${m} ${n(c)}`).join(', ') || 'none'})`,
      `  contexts: ${n(r.contexts.total)} leaderboards over all months, ${n(r.contexts.currentMonth)} this month; themes: ${r.themes.join(', ')}`,
      `  unresolved names: ${n(r.unresolvedNames.total)} mentions of ${n(r.unresolvedNames.distinct)} names${r.unresolvedNames.top.length ? '; top: ' + r.unresolvedNames.top.map((u) => `${u.name} (${n(u.count)})`).join(', ') : ''}`,
      `  out-of-universe mentions: ${n(r.outOfUniverseMentions)}`,
      `  written: ${n(r.output.files)} files, ${n(r.output.bytes)} bytes`,
    ].join('\n'),
  );
} catch (e) {
  if (e instanceof DataError) {
    console.error(`\nBuild stopped: ${e.issues.length}${e.truncated ? '+' : ''} problem(s) in the data; the output folder was not touched.`);
    for (const i of e.issues) console.error(`  ${formatIssue(i)}`);
  } else if (e instanceof PublishGateError) {
    console.error(`\nBuild stopped by the publish gate; the output folder was not touched.\n${e.message}`);
  } else console.error(`\n${stopMessage(e, env.EVI_DEBUG === '1')}`);
  process.exit(1);
}
