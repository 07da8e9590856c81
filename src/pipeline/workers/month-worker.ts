/** A month-job worker (month-files.ts): one month at a time, the build's shared context from workerData. */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './gc.ts';
import { historyOnly, runMonthJob, type MonthContext, type MonthJob } from '../write/month-files.ts';

let ctx = workerData as MonthContext;
// The leaderboards jobs come before the views jobs (FIFO pool): at its first views job a
// worker keeps only what the views read of the months (historyOnly).
let historyOnlyCtx = false;
parentPort!.on('message', async (job: MonthJob) => {
  try {
    if (job.boards && historyOnlyCtx) throw new Error('a leaderboards job after the views jobs: this worker no longer holds whole results');
    if (job.views && !historyOnlyCtx) {
      ctx = { ...ctx, input: { ...ctx.input, results: ctx.input.results.map(historyOnly) } };
      historyOnlyCtx = true;
    }
    const parsed = await runMonthJob(ctx, job, (line) => console.error(line));
    parentPort!.postMessage({ parsed });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).stack ?? String(e) });
    return;
  }
  // Collect a views job's garbage before the next job. Outside the try: the job is
  // answered already, and a failed collection must not send a second answer.
  if (job.views) {
    try {
      collectGarbage();
    } catch {
      // the heap is collected when V8 decides
    }
  }
});
