/** Entry of `npm run mcp` (`tsx src/adapters/node/cli.ts mcp`) and of the package's bin. */
import { main } from './mcp-stdio.ts';

await main(process.argv.slice(2));
