import { saidOf } from '../../shared/said';
import type { MethodHandlers } from '../ipc/router';
import type { PlanCacheStore } from '../../core/storage/plan-cache-store';

export function planCacheHandlers(store: PlanCacheStore): MethodHandlers {
  return {
    // A damaged file is shown as the listing's problem, so Settings can say what to do instead of failing.
    'planCache.list': () => store.list().then((entries) => ({ entries, problem: null }), (error: Error) => ({ entries: [], problem: error.message, problemSaid: saidOf(error) })),
    'planCache.forget': async ({ which }) => ({ which, forgotten: await store.forget(which) }),
  };
}
