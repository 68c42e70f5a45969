// Runs after `npm install`: builds the app once so `npx amc serve` and `npm start` work straight away.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (existsSync('out/renderer/index.html') || !existsSync('electron.vite.config.ts')) process.exit(0);
const result = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
