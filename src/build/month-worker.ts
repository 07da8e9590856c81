/** A month-job worker (month-files.ts): one month at a time, the build's shared context from workerData. */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from './gc.ts';
import { historyOnly, runMonthJob, type MonthContext, type MonthJob } from './month-files.ts';

let ctx = workerData as MonthContext;
// All the leaderboards jobs (which read whole results) come before the views jobs
// (write-months.ts; the pool is FIFO). At its first views job a worker keeps of the
// months only what the views read (historyOnly) and lets go of its copy of the rest.
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
  // A views job's garbage collected before the next job, so that the next one starts from
  // a compact heap of what stays. Outside the job's try: the job is answered already, and a
  // failed collection (only memory kept longer) must not send the pool a second answer.
  if (job.views) {
    try {
      collectGarbage();
    } catch {
      // the heap is collected when V8 decides
    }
  }
});
