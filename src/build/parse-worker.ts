import { parentPort } from 'node:worker_threads';
import { parseMonthFile } from './parse-month.ts';

// The pool sends a worker its next month only after this one's answer.

parentPort!.on('message', async (job: { path: string; display: string; month: string; lookups: Parameters<typeof parseMonthFile>[3] }) => {
  try {
    const parsed = await parseMonthFile(job.path, job.display, job.month, job.lookups);
    parentPort!.postMessage({ parsed });
  } catch (e) {
    parentPort!.postMessage({ error: (e as Error).message });
  }
});
