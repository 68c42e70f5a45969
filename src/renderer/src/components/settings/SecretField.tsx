import { useState } from 'react';
import type { SettingsScreen } from '../../../../shared/contract';
import type { SecretName } from '../../../../shared/settings';
import { useBridge } from '../../bridge-context';
import { plainError } from '../../lib/errors';
import { useSettingsStore } from '../../store/settings-store';
import { OverrideNote } from './OverrideNote';

/**
 * A write-only secret: the page only ever learns "set" or "not set". A typed value is an unsaved change like any
 * other (the form's Save stores it), or is stored at once with Set / Enter; either way it is sent once and the
 * field is emptied.
 */
export function SecretField({ name, label, screen }: { name: SecretName; label: string; screen: SettingsScreen }) {
  const bridge = useBridge();
  const draft = useSettingsStore((s) => s.typedSecrets[name] ?? '');
  const setDraft = (value: string) => useSettingsStore.getState().setTypedSecret(name, value);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const state = screen.secrets[name] ?? 'not set';
  const id = `secret-${name}`;
  const override = screen.overriddenFields[`secrets.${name}`];

  const update = async (value: string | null) => {
    setBusy(true);
    setProblem(null);
    try {
      const next = await bridge.call('settings.setSecret', { name, value });
      useSettingsStore.getState().setScreen(next, { keepEdits: true });
      setDraft('');
    } catch (error) {
      setProblem(plainError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="setting-field kind-secret" data-field={`secrets.${name}`}>
      <label htmlFor={id}>
        {label} <span className={`secret-state ${state === 'set' ? 'is-set' : 'is-unset'}`} data-testid={`secret-state-${name}`}>{state}</span>
        {draft.trim() && <span className="muted small"> · typed, stored when you press Save</span>}
      </label>
      <div className="secret-row">
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={state === 'set' ? 'Type a new value to replace it' : 'Paste the value'}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && draft.trim()) {
              event.preventDefault();
              void update(draft);
            }
          }}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <button
          type="button"
          className="button secondary"
          disabled={busy || !draft.trim()}
          onClick={() => void update(draft)}
          aria-label={`${state === 'set' ? 'Replace' : 'Set'} ${label}`}
        >
          {state === 'set' ? 'Replace' : 'Set'}
        </button>
        <button type="button" className="button secondary" disabled={busy || state !== 'set'} onClick={() => void update(null)} aria-label={`Clear ${label}`}>
          Clear
        </button>
      </div>
      {problem && (
        <p className="field-problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      {override && <OverrideNote id={`${id}-override`} variable={override} />}
    </div>
  );
}
