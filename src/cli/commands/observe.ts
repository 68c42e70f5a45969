import { writeFile } from 'node:fs/promises';
import type { CliCommand } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { sceneToJson } from '../../shared/scene';
import { ADB_OPTIONS_USAGE, adbFromOptions, adbOptions, pickSerial, withInterrupt } from './devices';
import { terminalWords } from '../terminal-words';

const FORMATS = ['png', 'jpeg', 'webp'] as const;
type Format = (typeof FORMATS)[number];

export const observeCommand: CliCommand = {
  name: 'observe',
  usage: `amc observe [-s SERIAL] [--json] [--screenshot FILE] [--format jpeg|png|webp] [--long-edge PX] ${ADB_OPTIONS_USAGE}`,
  async run(args, io) {
    const { t } = terminalWords();
    const { values } = parseCommandArgs(args, {
      serial: { type: 'string', short: 's' },
      json: { type: 'boolean' },
      screenshot: { type: 'string' },
      format: { type: 'string' },
      'long-edge': { type: 'string' },
      ...adbOptions,
    });
    const format = (values.format ?? 'jpeg') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(t('cli:usageError.oneOf', { option: '--format', accepted: FORMATS.join(', '), value: values.format }));
    const longEdge = values['long-edge'] === undefined ? 1456 : Number(values['long-edge']);
    if (!Number.isInteger(longEdge) || longEdge < 64 || longEdge > 8192) {
      throw new UsageError(t('cli:usageError.longEdge', { value: values['long-edge'] }));
    }
    const adb = await adbFromOptions(values);
    const serial = await pickSerial(adb, values.serial);
    const { Observer } = await import('../../core/perception/observer');
    const { typingOfThisMachine } = await import('../../app/phone-typing');
    // yadb is pushed when the screen never goes idle, with this machine's Settings (path, download), as the app does.
    const observer = new Observer(adb, { screenshot: { format, longEdge }, helpers: typingOfThisMachine(adb).helpers });
    let observation;
    try {
      observation = await withInterrupt((signal) => observer.observe(serial, { signal }));
    } catch (error) {
      if ((error as Error).name === 'AbortError') return ExitCode.cancelled;
      throw error;
    }
    const { screenshot } = observation;
    if (values.screenshot && screenshot) await writeFile(values.screenshot, screenshot.bytes);
    const screenshotFacts = screenshot && {
      mediaType: screenshot.mediaType,
      width: screenshot.width,
      height: screenshot.height,
      scale: Number(screenshot.scale.toFixed(4)),
      bytes: screenshot.bytes.length,
    };
    if (values.json) {
      const { scene, sceneError, screenshotError, timings } = observation;
      io.out(JSON.stringify({ serial, scene, sceneError, screenshot: screenshotFacts, screenshotError, timings }));
    } else {
      if (observation.scene) io.out(sceneToJson(observation.scene));
      else io.err(observation.sceneError ?? t('cli:observe.noScene'));
      const { totalMs, dumpMs, screenshotMs } = observation.timings;
      io.out(t('cli:observe.timings', { total: totalMs, dump: dumpMs ?? '-', screenshot: screenshotMs ?? '-' }));
      if (screenshotFacts) {
        const { width, height, bytes, scale } = screenshotFacts;
        const writtenTo = values.screenshot ? t('cli:observe.writtenTo', { file: values.screenshot }) : '';
        io.out(t('cli:observe.screenshot', { width, height, format, bytes, scale }) + writtenTo);
      } else {
        io.out(observation.screenshotError ?? t('cli:observe.noScreenshot'));
      }
    }
    if (values.screenshot && !screenshot) io.err(t('cli:observe.notWritten', { file: values.screenshot }));
    return observation.scene ? ExitCode.ok : ExitCode.failed;
  },
};
