#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx amc` works right after `npm install` with no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register();
const entry = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
