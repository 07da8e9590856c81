/** A month-job worker (month-files.ts): one month at a time, the build's shared context from workerData. */
import { parentPort, workerData } from 'node:worker_threads';
import { runMonthJob, type MonthContext, type MonthJob } from './month-files.ts';

const ctx = workerData as MonthContext;
parentPort!.on('message', async (job: MonthJob) => {
  try {
    const parsed = await runMonthJob(ctx, job, (line) => console.error(line));
    parentPort!.postMessage({ parsed });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).stack ?? String(e) });
  }
});
