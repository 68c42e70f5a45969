import { useWords } from '../../i18n/use-words';

export function OverrideNote({ id, variable, inEffect }: { id: string; variable: string; inEffect?: string }) {
  const { t } = useWords();
  return (
    <p className="field-override" id={id} data-testid="override-note">
      {t('app:settings.overriddenBy', { variable })}
      {inEffect !== undefined && t('app:settings.inEffect', { value: inEffect })}
    </p>
  );
}
