// A separate process that changes the app's shared files, as `amc run` and `amc schedule` do beside the app:
// `shared-file-writer.ts HOME TAG COUNT` adds COUNT schedules and COUNT notes named after TAG, one change at a time.
import { createNotesStore } from '../../src/core/storage/notes-store';
import { createScheduleStore } from '../../src/core/storage/schedule-store';

const [home, tag, count] = process.argv.slice(2);
if (!home || !tag || !count) throw new Error('usage: shared-file-writer.ts HOME TAG COUNT');
const schedules = createScheduleStore(home);
const notes = createNotesStore(home);
for (let index = 0; index < Number(count); index += 1) {
  const name = `${tag}-${index}`;
  await schedules.update((file) => ({
    ...file,
    schedules: [...file.schedules, { name, cron: '0 8 * * *', goal: `Goal ${name}`, phones: { kind: 'serials', serials: ['phone'] }, createdAt: Date.now(), lastPlannedAt: Date.now(), lastRun: null }],
  }));
  await notes.keep(`task-${name}`, [{ app: 'com.android.settings', goal: `Goal ${name}`, route: 'Settings > Network' }]);
}
