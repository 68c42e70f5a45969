// Entry of the scripted model's worker thread: threads do not inherit tsx's loader hooks, so it registers them.
import { register } from 'tsx/esm/api';

register();
await import('./scripted-model-thread.ts');
