import type { MethodHandlers } from '../ipc/router';
import type { RecordingService } from '../recording-service';

export const recordingHandlers = (recorder: RecordingService): MethodHandlers => ({
  'record.start': async ({ serial }) => ({ recording: await recorder.start(serial) }),
  'record.status': ({ serial }) => ({ recording: recorder.status(serial) }),
  'record.stop': async ({ serial, goal }) => ({ taskId: await recorder.stop(serial, goal) }),
  'record.discard': ({ serial }) => {
    recorder.discard(serial);
    return { recording: null };
  },
  'record.deleteStep': ({ serial, stepId }) => ({ recording: recorder.deleteStep(serial, stepId) }),
  'record.editStep': ({ serial, stepId, text, vars }) => ({ recording: recorder.editStep(serial, stepId, text, vars) }),
  'record.setOptional': ({ serial, stepId, optional }) => ({ recording: recorder.setOptional(serial, stepId, optional) }),
  'record.addCheck': async ({ serial, kind, x, y }) => ({ recording: await recorder.addCheck(serial, kind, x !== undefined && y !== undefined ? { x, y } : undefined) }),
  'record.cancelCheck': ({ serial }) => ({ recording: recorder.cancelCheck(serial) }),
});
