import type { MirrorStatus } from '../../../../shared/contract';
import { wordSaid } from '../../../../shared/said';
import { useMirrorStore } from '../../store/mirror-store';
import { useWords } from '../../i18n/use-words';
import { Diagnostics } from '../Diagnostics';

/** Which path the picture takes and, for screenshots, why and what to change to get video. */
function MirrorSource({ status }: { status: MirrorStatus | null }) {
  const words = useWords();
  const { t } = words;
  if (!status || status.state === 'stopped') return null;
  if (status.source === 'video') {
    return (
      <span className="muted mirror-source" data-testid="mirror-source" data-source="video">
        {t('app:mirror.video')}
      </span>
    );
  }
  if (!status.fallbackReason) return null;
  const said = status.fallbackSaid;
  const reason = t('app:mirror.fallback', { reason: wordSaid(status.fallbackReason, said?.reason, words) });
  const fix = status.fallbackFix ? t('app:mirror.fallbackFix', { fix: wordSaid(status.fallbackFix, said?.fix, words) }) : '';
  // Beside the phone the lines wrap whole (a cut-off reason hid the fix); under a small phone, the title has it all.
  return (
    <span className="muted mirror-source" data-testid="mirror-source" data-source="screenshots" title={`${reason}${fix}`}>
      {reason}
      {status.fallbackFix && (
        <span className="mirror-source-fix" data-testid="mirror-source-fix">
          {fix}
        </span>
      )}
    </span>
  );
}

/**
 * The mirror's frame rate as painted here, how far the picture lags the phone (capture start to paint), main's
 * capture time, and why frames may not flow. The numbers are also data attributes, for the benchmark.
 */
export function MirrorStats({ serial }: { serial: string }) {
  const status = useMirrorStore((s) => (s.status?.serial === serial ? s.status : null));
  const fps = useMirrorStore((s) => s.paintedFps);
  const painted = useMirrorStore((s) => (s.painted?.serial === serial ? s.painted : null));
  const { t } = useWords();
  const note =
    status?.error ??
    (status?.pausedBecause === 'hidden'
      ? t('app:mirror.hiddenPause')
      : status?.state === 'stopped'
        ? t('app:mirror.stopped')
        : null);
  // A div: the Diagnostics disclosure inside may not sit in a paragraph.
  return (
    <div
      className="mirror-stats"
      data-testid="mirror-stats"
      data-fps={fps.toFixed(2)}
      data-latency-ms={painted ? Math.round(painted.latencyMs) : ''}
      role="status"
    >
      {note && <span className={status?.error ? 'bad' : 'muted'}>{note} </span>}
      <Diagnostics label={t('app:mirror.diagnostics')}>
        <span data-testid="mirror-fps">{fps > 0 ? t('app:mirror.fps', { fps: fps.toFixed(1) }) : t('app:mirror.noFrames')}</span>
        {painted && <span title={t('app:mirror.lagTitle')}>{t('app:mirror.lag', { ms: Math.round(painted.latencyMs) })}</span>}
        {status?.captureMs != null && <span>{t('app:mirror.captureMs', { ms: Math.round(status.captureMs) })}</span>}
      </Diagnostics>
      <MirrorSource status={status} />
    </div>
  );
}
