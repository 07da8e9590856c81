#!/usr/bin/env node
// The package's bin (`employer-visibility-index mcp`, once the package is installed): the sources are TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
