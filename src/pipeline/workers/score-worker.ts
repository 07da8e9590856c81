/** A scoring worker (score-months.ts): one past month at a time, the registry from workerData. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Registry } from '../../core/registry.ts';
import { universes } from '../../core/score.ts';
import { scorePastMonth, transferList, type ScoreJob } from '../score/score-months.ts';

const registry = workerData as Registry;
const pools = universes(registry);
parentPort!.on('message', async (job: ScoreJob) => {
  try {
    const parsed = await scorePastMonth(registry, pools, job, (line) => console.error(line));
    // typed arrays transferred, not copied
    parentPort!.postMessage({ parsed }, transferList(parsed.result, parsed.details));
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).stack ?? String(e) });
  }
});
