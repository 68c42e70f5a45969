// Entry of a demo phone's worker thread. Threads do not inherit the loader hooks that run the TypeScript
// sources (tsx, registered by bin/amc.mjs or the test runner), so the thread registers them itself.
import { register } from 'tsx/esm/api';

register();
await import('./demo-phone-thread.ts');
