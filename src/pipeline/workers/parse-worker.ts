import { parentPort } from 'node:worker_threads';
import { runMonthJob, type MonthJob } from '../read/parse-month.ts';

parentPort!.on('message', async (job: MonthJob) => {
  try {
    parentPort!.postMessage({ parsed: await runMonthJob(job) });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).message });
  }
});
