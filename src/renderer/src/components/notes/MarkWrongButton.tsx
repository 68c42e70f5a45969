import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';

/** "Mark as wrong" on a task that reached its goal: the notes it taught go, so no later task follows its route. */
export function MarkWrongButton({ taskId }: { taskId: string }) {
  const bridge = useBridge();
  const [said, setSaid] = useState<string | null>(null);
  const mark = async () => {
    try {
      const { removed } = await bridge.call('notes.markRunWrong', { taskId });
      setSaid(
        removed.length
          ? `Marked as wrong: removed ${removed.length === 1 ? 'the note' : `${removed.length} notes`} it taught (${removed.map((note) => note.route).join('; ')}).`
          : 'Marked as wrong: it had taught no notes.',
      );
    } catch (error) {
      reportError(error);
    }
  };
  return (
    <p className="mark-wrong">
      <button type="button" className="button secondary" onClick={() => void mark()} disabled={said !== null}>
        Mark as wrong
      </button>
      {said && (
        <span className="muted" role="status" data-testid="mark-wrong-result">
          {said}
        </span>
      )}
    </p>
  );
}
