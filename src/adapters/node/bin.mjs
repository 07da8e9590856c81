#!/usr/bin/env node
// The package's bin (`npx employer-visibility-index mcp`): the sources are TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
