/** A month-job worker (month-files.ts): one month at a time, the build's shared context from workerData. */
import { parentPort, workerData } from 'node:worker_threads';
import { keepCsvBuffer } from './downloads.ts';
import { collectGarbage } from './gc.ts';
import { historyOnly, runMonthJob, type MonthContext, type MonthJob } from './month-files.ts';

let ctx = workerData as MonthContext;
// All the leaderboards jobs (which read whole results) come before the views jobs
// (write-months.ts; the pool is FIFO). At its first views job a worker keeps of the
// months only what the views read (historyOnly) and lets go of its copy of the rest.
// The leaderboards jobs make one month's CSV after another in one kept buffer, let go with
// the whole results.
let historyOnlyCtx = false;
keepCsvBuffer(true);
parentPort!.on('message', async (job: MonthJob) => {
  try {
    if (job.boards && historyOnlyCtx) throw new Error('a leaderboards job after the views jobs: this worker no longer holds whole results');
    if (job.views && !historyOnlyCtx) {
      ctx = { ...ctx, input: { ...ctx.input, results: ctx.input.results.map(historyOnly) } };
      historyOnlyCtx = true;
      keepCsvBuffer(false);
    }
    const parsed = await runMonthJob(ctx, job, (line) => console.error(line));
    parentPort!.postMessage({ parsed });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).stack ?? String(e) });
    return;
  }
  // A views job's garbage (its month's result and board details, or its aggregate
  // scored again; its records and their texts) collected before the next job: the next
  // one starts from a compact heap of what stays (the months' history form and the kept
  // history numbers; ~75 MiB live at reference scale when the jobs kept history texts)
  // instead of one V8 let grow to 300-400 MiB. Cold reference builds: the views phase's
  // peak ~1,510 -> ~1,345 MiB (BENCHMARKS.md, "Third step"); left out, now that a job
  // makes records, it gained nothing measurable ("Build: a past month scored once").
  // Outside the job's try: the job is answered already, and a failed collection (only
  // memory kept longer) must not send the pool a second answer for it.
  if (job.views) {
    try {
      collectGarbage();
    } catch {
      // the heap is collected when V8 decides
    }
  }
});
