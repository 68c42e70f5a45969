import { fireEvent, screen } from '@testing-library/react';
import { SETTINGS_FIELDS } from '../../src/renderer/src/components/settings/fields';

/**
 * Makes the Settings form show the field at `path` as a person would: the AI planner switched on, and the transport
 * and provider that use it chosen (the form shows only the fields the chosen ones read).
 */
export function revealField(path: string): void {
  if (document.querySelector(`[data-field="${path}"]`)) return;
  const field = SETTINGS_FIELDS.find((candidate) => candidate.path === path)!;
  const enabled = screen.getByLabelText('Use the AI planner') as HTMLInputElement;
  if (!enabled.checked) fireEvent.click(enabled);
  const use = field.appliesTo.find((candidate) => candidate !== 'app' && candidate !== 'ai-planner');
  if (use === 'cloud-proxy') fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'cloud-proxy' } });
  if (use === 'anthropic' || use === 'openai') {
    fireEvent.change(screen.getByLabelText('Transport'), { target: { value: 'direct' } });
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: use } });
  }
}
