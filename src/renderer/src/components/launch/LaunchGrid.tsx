import { useEffect, useRef, useState } from 'react';
import type { LaunchStarted } from '../../../../shared/contract';
import { finishedOutcomeWords, type LaunchRow } from '../../../../shared/launch';
import { useWords } from '../../i18n/use-words';
import { useBridge } from '../../bridge-context';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useLaunchRows } from './use-launch-rows';

/**
 * The launch's phones side by side. The live mirror is one phone at a time (the one selected on the left); here each
 * phone shows its screen as of its last step, taken again after every step. Clicking one selects it for the live
 * mirror.
 */
export function LaunchGrid({ launch }: { launch: LaunchStarted }) {
  const rows = useLaunchRows(launch);
  const { t } = useWords();
  return (
    <ul className="launch-grid" aria-label={t('app:launch.gridLabel')} data-testid="launch-grid">
      {rows.map((row) => (
        <PhoneCell key={row.serial} row={row} />
      ))}
    </ul>
  );
}

function PhoneCell({ row }: { row: LaunchRow }) {
  const name = useDevicesStore((s) => nameOfSerial(s, row.serial));
  const select = useDevicesStore((s) => s.select);
  const words = useWords();
  const { t } = words;
  const screen = useLatestScreen(row.serial, `${row.steps}/${row.outcome ?? 'running'}`, row.taskId !== null);
  return (
    <li className="launch-cell" data-testid="launch-cell" data-serial={row.serial}>
      <button type="button" className="launch-cell-button" onClick={() => select(row.serial)} title={t('app:launch.showInMirror', { name })}>
        <span className="launch-cell-name">
          {name} <span className="launch-serial">{row.serial}</span>
        </span>
        {screen ? <img src={screen} alt={t('app:launch.screenOf', { name })} /> : <span className="launch-cell-empty muted">{t('app:launch.noScreen')}</span>}
        <span className="launch-cell-state">{row.outcome ? finishedOutcomeWords(row.outcome, words) : t('app:launch.runningStep', { step: row.steps })}</span>
      </button>
    </li>
  );
}

/**
 * The phone's screen as a data URL, taken again whenever `version` changes; one request at a time, and a change that
 * came while one was out is taken right after it. Null until one arrives.
 */
function useLatestScreen(serial: string, version: string, enabled: boolean): string | null {
  const bridge = useBridge();
  const [screen, setScreen] = useState<string | null>(null);
  const [taken, setTaken] = useState<string | null>(null);
  const inFlight = useRef(false);
  useEffect(() => {
    if (!enabled || inFlight.current || taken === version) return;
    inFlight.current = true;
    bridge
      .call('devices.screenshot', { serial })
      .then((file) => setScreen(`data:${file.mediaType};base64,${file.base64}`))
      // A phone that went away keeps its last screen; its row says what happened.
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
        setTaken(version);
      });
  }, [bridge, serial, version, enabled, taken]);
  return screen;
}
