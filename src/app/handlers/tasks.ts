import type { MethodHandlers } from '../ipc/router';
import type { TaskService } from '../task-service';

export const taskHandlers = (tasks: TaskService): MethodHandlers => ({
  'tasks.run': (input) => tasks.run(input),
  'tasks.replay': (input) => tasks.replay(input),
  'tasks.launch': (input) => tasks.launch(input),
  'tasks.stop': ({ taskId, serial }) => tasks.stop(taskId, serial),
  'tasks.pause': ({ taskId }) => tasks.pause(taskId),
  'tasks.resume': ({ taskId, note }) => tasks.resume(taskId, note),
  'tasks.current': ({ serial }) => tasks.current(serial),
  'tasks.reply': (input) => tasks.desk.reply(input),
});
