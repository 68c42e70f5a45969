import type { TaskEvent, TaskFailure } from '../../shared/task';

/** Seed D7's `<ErrorName>: <message>`: a class name (`AdbError`, `ToolCallUnavailable`, `TypeError`, `Error`), then the message. */
const D7_REASON = /^((?:[A-Z][a-z0-9]+){2,}|Error|[A-Z][a-z]+Error): ([\s\S]*)$/;

/**
 * The failure of a task recorded before failures were kept apart, from its D7 reason; undefined for a reason no
 * exception wrote (a model's, a person's, a stop's). A wrapped cause's name ("ToolCallUnavailable: TypeError: ...")
 * is not part of the message, as it never was of the words shown.
 */
export function failureFromReason(reason: string): TaskFailure | undefined {
  const parts = D7_REASON.exec(reason.trim());
  if (!parts) return undefined;
  let message = parts[2] ?? '';
  for (let inner = D7_REASON.exec(message); inner; inner = D7_REASON.exec(message)) message = inner[2] ?? '';
  return { error: parts[1] ?? 'Error', message };
}

/** A `task.finished` event as read from a history file: one written before failures were kept apart gains its failure. */
export function withFailureKeptApart(event: TaskEvent): TaskEvent {
  if (event.type !== 'task.finished' || event.status !== 'failed' || event.failure || event.failureReason === null) return event;
  const failure = failureFromReason(event.failureReason);
  return failure ? { ...event, failure } : event;
}
