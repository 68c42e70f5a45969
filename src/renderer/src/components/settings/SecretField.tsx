import { useEffect, useRef, useState } from 'react';
import type { SettingsScreen } from '../../../../shared/contract';
import type { SecretName } from '../../../../shared/settings';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
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
  const input = useRef<HTMLInputElement>(null);
  const focusRequested = useSettingsStore((s) => s.focusSecret === name);
  // Asked for ("I have an API key"): the field comes into view with the cursor in it, whatever the window's height.
  // After the frame: the drawer puts the focus on its title when it opens, and the field takes it from there.
  useEffect(() => {
    if (!focusRequested) return;
    const frame = requestAnimationFrame(() => {
      input.current?.scrollIntoView?.({ block: 'center' }); // absent where there is no layout (jsdom)
      input.current?.focus();
      useSettingsStore.getState().requestFocus(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [focusRequested]);
  const { t } = useWords();
  const [problem, setProblem] = useState<string | null>(null);
  const state = screen.secrets[name] ?? 'not set';
  const id = `secret-${name}`;
  const override = screen.overriddenFields[`secrets.${name}`];

  const update = async (value: string | null) => {
    setBusy(true);
    setProblem(null);
    try {
      const next = await bridge.call('settings.setSecret', { name, value });
      useSettingsStore.getState().secretSaved(name);
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
        {label} <span className={`secret-state ${state === 'set' ? 'is-set' : 'is-unset'}`} data-testid={`secret-state-${name}`}>{state === 'set' ? t('app:secret.set') : t('app:secret.notSet')}</span>
        {draft.trim() && <span className="muted small">{t('app:secret.typed')}</span>}
      </label>
      <div className="secret-row">
        <input
          ref={input}
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={state === 'set' ? t('app:secret.replacePlaceholder') : t('app:secret.pastePlaceholder')}
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
          aria-label={state === 'set' ? t('app:secret.replaceLabel', { label }) : t('app:secret.setLabel', { label })}
        >
          {state === 'set' ? t('app:secret.replace') : t('app:secret.setButton')}
        </button>
        <button type="button" className="button secondary" disabled={busy || state !== 'set'} onClick={() => void update(null)} aria-label={t('app:secret.clearLabel', { label })}>
          {t('app:secret.clear')}
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
