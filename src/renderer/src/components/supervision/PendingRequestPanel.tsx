import type { SupervisorReply } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useSupervisionStore } from '../../store/supervision-store';
import { ConfirmationCard } from './ConfirmationCard';
import { HandOverPanel } from './HandOverPanel';
import { QuestionCard } from './QuestionCard';
import { useAttentionNotice } from './use-attention-notice';

/** What the shown task waits on the person for, as the card that lets them answer; nothing when it waits on nobody. */
export function PendingRequestPanel({ task }: { task: TaskRecord }) {
  const bridge = useBridge();
  const request = useSupervisionStore((state) => state.byTask[task.id]);
  useAttentionNotice(request);
  if (!request) return null;
  const onReply = async (reply: SupervisorReply) => {
    try {
      const result = await bridge.call('tasks.reply', { taskId: task.id, requestId: request.id, reply });
      if (!result.accepted && result.reason) reportError(new Error(result.reason));
    } catch (error) {
      reportError(error);
    }
  };
  switch (request.kind) {
    case 'question':
      return <QuestionCard key={request.id} request={request} onReply={onReply} />;
    case 'confirmation':
      return (
        <ConfirmationCard
          key={request.id}
          request={request}
          scene={task.steps.find((step) => step.step === request.step)?.scene ?? null}
          onReply={onReply}
        />
      );
    case 'hand-over':
    case 'loop':
      return <HandOverPanel key={request.id} request={request} onReply={onReply} />;
  }
}
