import type { MirrorStatus } from '../../../../shared/contract';
import { useMirrorStore } from '../../store/mirror-store';
import { Diagnostics } from '../Diagnostics';

/** Which path the picture takes and, for screenshots, why and what to change to get video. */
function MirrorSource({ status }: { status: MirrorStatus | null }) {
  if (!status || status.state === 'stopped') return null;
  if (status.source === 'video') {
    return (
      <span className="muted mirror-source" data-testid="mirror-source" data-source="video">
        Video (scrcpy)
      </span>
    );
  }
  if (!status.fallbackReason) return null;
  const whole = `Screenshots, not video: ${status.fallbackReason}.${status.fallbackFix ? ` Fix: ${status.fallbackFix}` : ''}`;
  // Beside the phone the lines wrap whole (a cut-off reason hid the fix); under a small phone, the title has it all.
  return (
    <span className="muted mirror-source" data-testid="mirror-source" data-source="screenshots" title={whole}>
      Screenshots, not video: {status.fallbackReason}.
      {status.fallbackFix && (
        <span className="mirror-source-fix" data-testid="mirror-source-fix">
          {' Fix: '}
          {status.fallbackFix}
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
  const note =
    status?.error ??
    (status?.pausedBecause === 'hidden'
      ? 'Paused while the window is hidden.'
      : status?.state === 'stopped'
        ? 'The mirror is stopped.'
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
      <Diagnostics label="Mirror diagnostics">
        <span data-testid="mirror-fps">{fps > 0 ? `${fps.toFixed(1)} fps` : 'no frames yet'}</span>
        {painted && <span title="From the start of the capture to the picture on screen"> · {Math.round(painted.latencyMs)} ms behind</span>}
        {status?.captureMs != null && <span> · capture {Math.round(status.captureMs)} ms</span>}
      </Diagnostics>
      <MirrorSource status={status} />
    </div>
  );
}
