import { parentPort } from 'node:worker_threads';
import { parseMonthFile } from './parse-month.ts';

parentPort!.on('message', async (job: { id: number; path: string; display: string; month: string; lookups: Parameters<typeof parseMonthFile>[3] }) => {
  try {
    const parsed = await parseMonthFile(job.path, job.display, job.month, job.lookups);
    parentPort!.postMessage({ id: job.id, parsed });
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: (e as Error).message });
  }
});
