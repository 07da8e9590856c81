// Worker entry of the build's TypeScript workers (tsWorker in worker-pool.ts): registers tsx
// in this thread, then runs the worker module whose file URL tsWorker appended to process.argv.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
