import type { GivenReply } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { ConfirmationCard } from './ConfirmationCard';
import { HandOverPanel } from './HandOverPanel';
import { QuestionCard } from './QuestionCard';
import { useAttentionNotice } from './use-attention-notice';

/** What the shown task waits on the person for, as the card that lets them reply; nothing when it waits on nobody. */
export function PendingRequestPanel({ task }: { task: TaskRecord }) {
  const bridge = useBridge();
  const pending = task.pending;
  useAttentionNotice(pending);
  if (!pending) return null;
  const { requestId, request, step } = pending;
  const onReply = async (reply: GivenReply) => {
    try {
      const result = await bridge.call('tasks.reply', { taskId: task.id, requestId, reply });
      if (!result.accepted && result.reason) reportError(new Error(result.reason));
    } catch (error) {
      reportError(error);
    }
  };
  switch (request.kind) {
    case 'question':
      return <QuestionCard key={requestId} requestId={requestId} request={request} onReply={onReply} />;
    case 'confirmation':
      return (
        <ConfirmationCard
          key={requestId}
          requestId={requestId}
          step={step}
          request={request}
          scene={task.steps.find((s) => s.step === step)?.scene ?? null}
          onReply={onReply}
        />
      );
    case 'hand-over':
    case 'loop':
      return <HandOverPanel key={requestId} requestId={requestId} request={request} onReply={onReply} />;
  }
}
