// Which language the interface speaks: the person's choice, else the system's locale (Electron's, the browser's,
// a terminal's LC_ALL / LC_MESSAGES / LANG), else English; and Electron's locale reaches the window's preload.
import { describe, expect, it } from 'vitest';
import { buildPreloadApi } from '../../src/preload/api';
import { LOCALE_ARGUMENT, mainWindowOptions } from '../../src/main/shell/shell-policy';
import { chooseLanguage, languageFromEnvironment, languageOfTag } from '../../src/shared/i18n/languages';
import { wordsFor } from '../../src/shared/i18n/translate';
import { formatDuration, stepCountsLabel } from '../../src/shared/task-words';

/** No IPC at all: these checks read only the preload's locale. */
const noIpc = { invoke: async () => undefined, on: () => undefined, removeListener: () => undefined } as never;

describe('interface language', () => {
  it("Scenario: The language follows the Settings choice, else the system's locale, else English", () => {
    for (const tag of ['zh', 'zh-CN', 'zh_CN.UTF-8', 'zh-Hans-CN', 'zh_SG']) expect(languageOfTag(tag), tag).toBe('zh-CN');
    for (const tag of ['en', 'en-US', 'en_GB.UTF-8']) expect(languageOfTag(tag), tag).toBe('en');
    for (const tag of ['C', 'POSIX', 'de_DE.UTF-8', 'zh-TW', '', undefined]) expect(languageOfTag(tag), String(tag)).toBeNull();

    expect(chooseLanguage('system', ['de-DE', 'zh-CN', 'en-US'])).toBe('zh-CN');
    expect(chooseLanguage('en', ['zh-CN'])).toBe('en');
    expect(chooseLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(chooseLanguage(undefined, ['fr-FR'])).toBe('en');

    expect(languageFromEnvironment({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(languageFromEnvironment({ LANG: 'zh_CN.UTF-8', LC_ALL: 'en_US.UTF-8' })).toBe('en');
    expect(languageFromEnvironment({ LANG: 'en_US.UTF-8', AMC_LANGUAGE: 'zh-cn' })).toBe('zh-CN');
    expect(languageFromEnvironment({ LANG: 'zh_CN.UTF-8', AMC_LANGUAGE: 'en' })).toBe('en');
    expect(languageFromEnvironment({ LANG: 'zh_CN.UTF-8', AMC_LANGUAGE: 'system' })).toBe('zh-CN');
    expect(languageFromEnvironment({})).toBe('en');

    // Numbers and units follow the language chosen: Chinese units, English ones unchanged.
    const chinese = wordsFor('zh-CN');
    expect(formatDuration(1_500, undefined, chinese)).toBe('1.5 秒');
    expect(formatDuration(125_000, undefined, chinese)).toBe('2 分 5 秒');
    expect(stepCountsLabel(3, 4, undefined, chinese)).toBe('4 轮，3 个操作');
    expect(stepCountsLabel(1, 1, 'en-US')).toBe('1 action in 1 turn');
    expect(stepCountsLabel(3, 4, 'en-US')).toBe('3 actions in 4 turns');
  });

  it("Scenario: Electron's locale reaches the window through the preload", () => {
    const options = mainWindowOptions('/opt/amc/preload.cjs', 'zh-CN');
    expect(options.webPreferences.additionalArguments).toEqual([`${LOCALE_ARGUMENT}zh-CN`]);
    expect(buildPreloadApi(noIpc, ['/usr/lib/electron', ...options.webPreferences.additionalArguments]).locale).toBe('zh-CN');
    expect(buildPreloadApi(noIpc, ['/usr/lib/electron']).locale).toBeNull();
  });
});
