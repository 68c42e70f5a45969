import { useMirrorStore } from '../../store/mirror-store';

/** The mirror's frame rate as painted here, main's capture time, and why frames may not flow. */
export function MirrorStats({ serial }: { serial: string }) {
  const status = useMirrorStore((s) => (s.status?.serial === serial ? s.status : null));
  const fps = useMirrorStore((s) => s.paintedFps);
  const painted = useMirrorStore((s) => s.painted);
  const note =
    status?.error ??
    (status?.pausedBecause === 'hidden'
      ? 'Paused while the window is hidden.'
      : status?.state === 'stopped'
        ? 'The mirror is stopped.'
        : null);
  return (
    <p className="mirror-stats" data-testid="mirror-stats" role="status">
      <span data-testid="mirror-fps">{fps > 0 ? `${fps.toFixed(1)} fps` : 'measuring fps…'}</span>
      {status?.captureMs != null && <span> · capture {Math.round(status.captureMs)} ms</span>}
      {painted && <span> · {painted.width}×{painted.height}</span>}
      {note && <span className={status?.error ? 'bad' : 'muted'}> · {note}</span>}
    </p>
  );
}
