import type { MethodHandlers } from '../ipc/router';
import type { LocalScheduler } from '../local-scheduler';

export function scheduleHandlers(scheduler: LocalScheduler): MethodHandlers {
  return {
    'schedules.list': () => scheduler.overview(),
    'schedules.add': (request) => scheduler.add(request),
    'schedules.remove': async ({ name }) => {
      const { removed, overview } = await scheduler.remove(name);
      if (!removed) throw new Error(`There is no schedule named "${name}".`);
      return overview;
    },
    'schedules.dismissMissed': () => scheduler.dismissMissed(),
  };
}
