import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { closeInspect, inspect, inspectsPhone, useInspectStore } from '../../store/inspect-store';

/** The key that turns Inspect on and off (outside a text field), shown on the button and in the shortcuts list. */
export const INSPECT_KEY = 'i';

/** Turns Inspect on for this phone (reading its screen) or off: a button beside the mirror, pressed while on. */
export function InspectToggle({ serial }: { serial: string }) {
  const bridge = useBridge();
  const on = useInspectStore(inspectsPhone(serial));
  const { t } = useWords();
  return (
    <button
      type="button"
      className={`button secondary icon${on ? ' is-on' : ''}`}
      aria-pressed={on}
      aria-keyshortcuts={INSPECT_KEY.toUpperCase()}
      aria-label={t('inspect:toggleLabel')}
      title={t('inspect:toggleTitle')}
      data-testid="inspect-toggle"
      onClick={() => (on ? closeInspect() : void inspect(bridge, { kind: 'phone', serial }))}
    >
      <span aria-hidden="true">{t('inspect:toggle')}</span>
    </button>
  );
}
