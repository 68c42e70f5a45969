import { useWords } from '../../i18n/use-words';
import { wordSaid } from '../../../../shared/said';
import { useSettingsStore } from '../../store/settings-store';
import { SecretField } from './SecretField';
import { SettingField } from './SettingField';
import { fieldIsShown, SETTINGS_FIELDS, settingsSections } from './fields';
import { SetupProblems } from './SetupProblems';
import { TestConnection } from './TestConnection';
import { useSettingsForm } from './use-settings-form';

const FIELD_PATHS = new Set(SETTINGS_FIELDS.map((field) => field.path));

/** Every setting, checked as you type, saved at once; secrets are write-only. */
export function SettingsForm() {
  const screen = useSettingsStore((s) => s.screen);
  const status = useSettingsStore((s) => s.status);
  const problems = useSettingsStore((s) => s.problems);
  const hasProblems = Object.keys(problems).length > 0;
  // A problem with no field of its own (the settings file itself, say) would otherwise disable Save silently.
  const formProblems = Object.entries(problems).filter(([field]) => !FIELD_PATHS.has(field));
  const discardEdits = useSettingsStore((s) => s.discardEdits);
  const values = useSettingsStore((s) => s.values);
  const { changed, save } = useSettingsForm();
  const words = useWords();
  const { t } = words;
  if (!screen) return <p className="muted">{t('app:settings.loading')}</p>;
  return (
    <form
      className="settings-form"
      aria-label={t('app:settings.formLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {screen.problem && (
        <p className="banner warning" role="alert">
          {screen.problem}
        </p>
      )}
      <SetupProblems />
      {settingsSections(words).map((section) => ({ ...section, fields: section.fields.filter((field) => fieldIsShown(field, values)) }))
        .filter((section) => section.fields.length > 0)
        .map((section) => (
          <fieldset key={section.id} data-section={section.id}>
            <legend>{section.title}</legend>
            {section.fields.map((field) =>
              field.kind === 'secret' ? (
                <SecretField key={field.path} name={field.secret} label={field.label} screen={screen} />
              ) : (
                <SettingField key={field.path} field={field} screen={screen} />
              ),
            )}
            {/* Each way to reach a model is tested from its own fields: the control plane's, or one provider's. */}
            {section.id === 'Cloud control plane' && <TestConnection target={{ transport: 'cloud-proxy' }} name={t('app:settings.cloudProxy')} />}
            {section.id === 'Direct access' && (
              <TestConnection
                key={String(values['aiPlanner.provider'])}
                target={{ transport: 'direct', provider: values['aiPlanner.provider'] === 'openai' ? 'openai' : 'anthropic' }}
                name={values['aiPlanner.provider'] === 'openai' ? 'OpenAI' : 'Anthropic'}
              />
            )}
          </fieldset>
        ))}
      <div className="settings-actions">
        {formProblems.length > 0 && (
          <ul className="field-problem form-problems" role="alert" data-testid="settings-form-problems">
            {formProblems.map(([field, message]) => (
              <li key={field}>{field.startsWith('(') ? message : `${field}: ${message}`}</li>
            ))}
          </ul>
        )}
        <button type="submit" className="button primary" disabled={changed === 0 || hasProblems || status === 'saving' || status === 'checking'}>
          {status === 'saving' ? t('app:settings.saving') : t('app:settings.save')}
        </button>
        <button type="button" className="button secondary" disabled={changed === 0} onClick={discardEdits}>
          {t('app:settings.discard')}
        </button>
        <span className="settings-status" role="status" data-testid="settings-status">
          {status === 'saved'
            ? t('app:settings.saved')
            : status === 'checking'
              ? t('app:settings.checking')
              : changed > 0
                ? t('app:settings.unsaved', { count: changed })
                : ''}
        </span>
      </div>
      <p className="muted small">{t('app:settings.storedIn', { folder: screen.folder })}</p>
      <p className="muted small" data-testid="key-storage">
        {wordSaid(screen.keyStorage, screen.keyStorageSaid, words)}
      </p>
    </form>
  );
}
