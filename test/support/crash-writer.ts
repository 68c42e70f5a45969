// A process that records task history and saves settings as fast as it can, printing an acknowledgement after
// each write is durable, until it is killed. The crash-safety test and bench kill it with SIGKILL mid-write.
import { createSettingsStore } from '../../src/core/storage/settings-store';
import { createTaskStore } from '../../src/core/storage/task-store';
import { taskEvents } from '../core/storage/task-fixtures';

const home = process.argv[2];
if (!home) throw new Error('usage: crash-writer.ts HOME');
const tasks = createTaskStore(home);
const settings = createSettingsStore(home);

for (let round = 0; ; round++) {
  const taskId = `crash-${process.pid}-${round}`;
  for (const [index, event] of taskEvents(taskId, 1_700_000_000_000 + round).entries()) {
    await tasks.append(event);
    process.stdout.write(`event ${taskId} ${index + 1}\n`);
  }
  const maxSteps = 1 + (round % 500);
  await settings.update({ aiPlanner: { maxSteps } });
  process.stdout.write(`settings ${maxSteps}\n`);
}
