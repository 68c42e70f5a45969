import enApp from './en/app';
import enCli from './en/cli';
import enCommon from './en/common';
import enDoctor from './en/doctor';
import enInspect from './en/inspect';
import enMcp from './en/mcp';
import enReport from './en/report';
import enSaid from './en/said';
import enSettings from './en/settings';
import zhApp from './zh-CN/app';
import zhCli from './zh-CN/cli';
import zhCommon from './zh-CN/common';
import zhDoctor from './zh-CN/doctor';
import zhInspect from './zh-CN/inspect';
import zhMcp from './zh-CN/mcp';
import zhReport from './zh-CN/report';
import zhSaid from './zh-CN/said';
import zhSettings from './zh-CN/settings';
import type { Language } from '../languages';

/**
 * Every message, per language and area (a key is `area:path.to.message`). English is the reference: each other
 * language has the same keys (checked by tsc through CatalogOf, and by test/shared/i18n-catalogs.test.ts).
 */
export const CATALOGS = {
  en: { common: enCommon, app: enApp, settings: enSettings, cli: enCli, report: enReport, mcp: enMcp, doctor: enDoctor, said: enSaid, inspect: enInspect },
  'zh-CN': { common: zhCommon, app: zhApp, settings: zhSettings, cli: zhCli, report: zhReport, mcp: zhMcp, doctor: zhDoctor, said: zhSaid, inspect: zhInspect },
} as const satisfies Record<Language, object>;

export type Area = keyof (typeof CATALOGS)['en'];
export const AREAS = Object.keys(CATALOGS.en) as Area[];
