import type { MethodHandlers } from '../ipc/router';
import type { SettingsService } from '../settings-service';

export const settingsHandlers = (settings: SettingsService): MethodHandlers => ({
  'settings.get': () => settings.screen(),
  'settings.validate': async ({ patch }) => {
    const problems = await settings.validate(patch);
    return { valid: problems.length === 0, problems };
  },
  'settings.update': ({ patch }) => settings.update(patch),
  'settings.setSecret': ({ name, value }) => settings.setSecret(name, value),
  'settings.testConnection': (overrides) => settings.testConnection(overrides),
});
