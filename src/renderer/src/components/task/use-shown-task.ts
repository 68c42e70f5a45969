import { useDevicesStore } from '../../store/devices-store';
import { shownEntry, useTaskStore, type TaskEntry } from '../../store/task-store';

/** The task the timeline and the task controls are about, and whether its phone is still listed. */
export function useShownTask(): { entry: TaskEntry | undefined; phoneGone: boolean } {
  const selected = useDevicesStore((s) => s.selectedSerial);
  const list = useDevicesStore((s) => s.list);
  const listed = list?.devices.map((device) => device.serial) ?? [];
  const entry = useTaskStore((state) => shownEntry(state, selected, listed));
  return { entry, phoneGone: entry !== undefined && list !== null && !listed.includes(entry.task.serial) };
}
