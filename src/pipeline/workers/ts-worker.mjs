// Worker entry of tsWorker (worker-pool.ts): registers tsx, then runs the module named last in process.argv.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
