import { useState, type FormEvent } from 'react';
import type { RecordedStep } from '../../../../shared/recording';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { wordSaid } from '../../../../shared/said';
import { BridgeError } from '../../bridge';
import { plainError } from '../../lib/errors';
import { reportError } from '../../store/app-store';
import { useDevicesStore } from '../../store/devices-store';
import { useRecording } from './use-recording';

/** `name=value` lines as variables, or null when a line is not one. */
function varsFrom(text: string): Record<string, string> | null {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n').map((each) => each.trim()).filter(Boolean)) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (!match) return null;
    vars[match[1]!] = match[2]!.trim();
  }
  return vars;
}

/** The selected phone's recording, live: each step with its locator, to delete, edit or mark optional. */
export function RecordingPanel() {
  const serial = useDevicesStore((s) => s.selectedSerial);
  const recording = useRecording(serial);
  const words = useWords();
  const { t } = words;
  if (!serial || !recording) return null;
  return (
    <section className="recording-panel" aria-labelledby="recording-title" data-testid="recording-panel">
      <h3 id="recording-title">{t('app:record.title')}</h3>
      {recording.problem && (
        <p className="field-problem" role="alert">
          {wordSaid(recording.problem, recording.problemSaid, words)}
        </p>
      )}
      {recording.steps.length === 0 ? (
        <p className="muted">{t('app:record.empty')}</p>
      ) : (
        <ol className="recording-steps" aria-label={t('app:record.stepsLabel')}>
          {recording.steps.map((step, index) => (
            <RecordedStepItem key={step.id} serial={serial} step={step} number={index + 1} vars={recording.vars} />
          ))}
        </ol>
      )}
    </section>
  );
}

function RecordedStepItem({ serial, step, number, vars }: { serial: string; step: RecordedStep; number: number; vars: Record<string, string> }) {
  const bridge = useBridge();
  const words = useWords();
  const { t } = words;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(step.label);
  const [varsText, setVarsText] = useState(Object.entries(vars).map(([name, value]) => `${name}=${value}`).join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  const optional = 'optional' in step.step && step.step.optional === true;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const given = varsFrom(varsText);
    if (!given) return setProblem(t('app:record.varsProblem'));
    bridge
      .call('record.editStep', { serial, stepId: step.id, text, vars: given })
      .then(() => {
        setEditing(false);
        setProblem(null);
      })
      .catch((error: unknown) => setProblem(error instanceof BridgeError ? wordSaid(plainError(error), error.rpcError.said, words) : plainError(error)));
  };

  return (
    <li className="recorded-step" data-testid="recorded-step" data-note={step.note ?? ''} data-layout-ms={Math.round(step.layoutMs)} data-handled-ms={Math.round(step.handledMs)}>
      <code className="recorded-step-label">{step.label}</code>
      {step.note && <p className="small muted">{t(`app:record.note.${step.note}`)}</p>}
      <div className="recorded-step-actions">
        <label className="small">
          <input
            type="checkbox"
            checked={optional}
            aria-label={t('app:record.optionalLabel', { number })}
            onChange={(event) => void bridge.call('record.setOptional', { serial, stepId: step.id, optional: event.target.checked }).catch(reportError)}
          />{' '}
          {t('app:record.optional')}
        </label>
        <button
          type="button"
          className="button link"
          aria-label={t('app:record.editLabel', { number })}
          aria-expanded={editing}
          onClick={() => {
            setText(step.label);
            setEditing(!editing);
          }}
        >
          {t('app:record.edit')}
        </button>
        <button type="button" className="button link" aria-label={t('app:record.deleteLabel', { number })} onClick={() => void bridge.call('record.deleteStep', { serial, stepId: step.id }).catch(reportError)}>
          {t('app:record.delete')}
        </button>
      </div>
      {editing && (
        <form className="recorded-step-edit" onSubmit={save}>
          <label>
            {t('app:record.stepText', { number })}
            <textarea value={text} rows={2} maxLength={4000} onChange={(event) => setText(event.target.value)} />
          </label>
          <label>
            {t('app:record.vars')}
            <textarea value={varsText} rows={2} onChange={(event) => setVarsText(event.target.value)} />
          </label>
          {problem && (
            <p className="field-problem" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="button">
            {t('app:record.save')}
          </button>
          <button type="button" className="button secondary" onClick={() => setEditing(false)}>
            {t('app:record.cancel')}
          </button>
        </form>
      )}
    </li>
  );
}
