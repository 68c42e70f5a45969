import type { SettingsScreen } from '../../../../shared/contract';
import { DEFAULT_MODELS, type Provider } from '../../../../shared/settings';
import { useWords } from '../../i18n/use-words';
import { useSettingsStore } from '../../store/settings-store';
import { displayValue, type FieldSpec } from './fields';
import { OverrideNote } from './OverrideNote';

const inputId = (path: string) => `setting-${path.replace(/\./g, '-')}`;

/** One editable setting: its input, the reason it is not accepted (as you type) and any environment override. */
export function SettingField({ field, screen }: { field: Exclude<FieldSpec, { kind: 'secret' }>; screen: SettingsScreen }) {
  const value = useSettingsStore((s) => s.values[field.path]);
  const problem = useSettingsStore((s) => s.problems[field.path]);
  const setValue = useSettingsStore((s) => s.setValue);
  const id = inputId(field.path);
  const words = useWords();
  const provider = useSettingsStore((s) => s.values['aiPlanner.provider']);
  const help = (field.kind === 'select' && field.helpPerChoice?.[String(value)]) || (field.kind === 'toggle' && value === true && field.helpOn) || field.help;
  const override = screen.overriddenFields[field.path];
  const describedBy = [problem && `${id}-problem`, help && `${id}-help`, override && `${id}-override`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy } as const;

  let input;
  if (field.kind === 'toggle') {
    input = <input {...common} type="checkbox" checked={value === true} onChange={(event) => setValue(field.path, event.target.checked)} />;
  } else if (field.kind === 'select') {
    input = (
      <select {...common} value={String(value ?? '')} onChange={(event) => setValue(field.path, event.target.value)}>
        {field.options.map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    );
  } else {
    const placeholder =
      field.path === 'aiPlanner.model'
        ? DEFAULT_MODELS[provider === 'openai' ? 'openai' : ('anthropic' satisfies Provider)]
        : field.kind === 'text'
          ? field.placeholder
          : field.nullable
            ? words.t('app:settings.off')
            : undefined;
    input = (
      <input
        {...common}
        type="text"
        inputMode={field.kind === 'number' ? 'numeric' : field.inputMode}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        value={String(value ?? '')}
        onChange={(event) => setValue(field.path, event.target.value)}
      />
    );
  }

  return (
    <div className={`setting-field kind-${field.kind}${problem ? ' has-problem' : ''}`} data-field={field.path}>
      <label htmlFor={id}>{field.label}</label>
      {input}
      {problem && (
        <p className="field-problem" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      )}
      {help && (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      )}
      {override && <OverrideNote id={`${id}-override`} variable={override} inEffect={displayValue(screen.effective, field.path, words)} />}
    </div>
  );
}
