/** Entry of `npm run mcp` (`tsx src/mcp/cli.ts mcp`) and of the package's bin. */
import { main } from './main.ts';

await main(process.argv.slice(2));
