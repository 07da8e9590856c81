import { parentPort } from 'node:worker_threads';
import { keepBetweenMonths, runMonthJob, type MonthJob } from './parse-month.ts';

// The pool sends a worker its next month only after this one's answer; the memory of one
// month's reading is kept for the next.
keepBetweenMonths();

parentPort!.on('message', async (job: MonthJob) => {
  try {
    parentPort!.postMessage({ parsed: await runMonthJob(job) });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).message });
  }
});
