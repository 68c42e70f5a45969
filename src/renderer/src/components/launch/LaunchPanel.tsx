import { useEffect, useMemo, useRef, useState } from 'react';
import type { DeviceSummary } from '../../../../shared/device';
import { deviceGroupsOf } from '../../../../shared/device-groups';
import type { LaunchPhones } from '../../../../shared/launch';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';
import { phoneName, useDevicesStore } from '../../store/devices-store';
import { useGoalStore } from '../../store/goal-store';
import { useLaunchStore } from '../../store/launch-store';
import { useSettingsStore } from '../../store/settings-store';
import { allowedAppsOption } from '../supervision/AllowedAppsField';
import { FlowFileButton } from '../task/FlowFileButton';
import { LaunchGrid } from './LaunchGrid';
import { LaunchResults } from './LaunchResults';
import { SchedulesSection } from './SchedulesSection';

const NO_DEVICES: DeviceSummary[] = [];

/**
 * The goal above, on several phones at once: tick phones (or pick a device group from Settings), run, then watch
 * every phone's screen in a grid and how each ended in the results table.
 */
export function LaunchPanel() {
  const bridge = useBridge();
  const devices = useDevicesStore((s) => s.list?.devices ?? NO_DEVICES);
  const ready = devices.filter((device) => device.state === 'device');
  const groupsText = useSettingsStore((s) => s.screen?.effective.fleet.deviceGroups ?? '');
  const groups = useMemo(() => deviceGroupsOf(groupsText), [groupsText]);
  const goal = useGoalStore((s) => s.draft).trim();
  const { launch, picked, setLaunch, setPicked } = useLaunchStore();
  const results = useRef<HTMLDivElement>(null);
  const launchId = launch?.launchId;
  useEffect(() => {
    if (launchId) results.current?.scrollIntoView({ block: 'nearest' });
  }, [launchId]);
  const [group, setGroup] = useState('');
  const [starting, setStarting] = useState(false);

  const phones = group ? (groups.get(group) ?? []) : picked.filter((serial) => ready.some((device) => device.serial === serial));
  const target: LaunchPhones | null = phones.length === 0 ? null : group ? { kind: 'group', group } : { kind: 'serials', serials: [...phones] };
  const words = useWords();
  const { t } = words;
  const notReady = !goal ? t('app:schedules.needGoal') : phones.length === 0 ? t('app:launch.needPhones') : null;
  const toggle = (serial: string, on: boolean) => {
    setGroup('');
    setPicked(on ? [...new Set([...picked, serial])] : picked.filter((each) => each !== serial));
  };
  const pickGroup = (name: string) => {
    setGroup(name);
    setPicked([...(groups.get(name) ?? [])]);
  };
  // A flow file on the phones picked: the same results table and grid as a goal's launch.
  const runFlow = async (text: string) => setLaunch(await bridge.call('flows.launch', { phones: target!, text }));
  const run = async () => {
    setStarting(true);
    try {
      setLaunch(await bridge.call('tasks.launch', { goal, phones: target!, ...allowedAppsOption(), language: words.language }));
    } catch (error) {
      reportError(error);
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="launch-panel" data-testid="launch-panel">
      <fieldset className="launch-picker">
        <legend>{t('app:launch.legend')}</legend>
        {ready.length === 0 && <p className="muted">{t('app:launch.noPhoneReady')}</p>}
        <div className="launch-phones">
          {ready.map((device) => (
            <label key={device.serial} className="launch-phone" title={device.serial}>
              <input type="checkbox" checked={picked.includes(device.serial)} onChange={(event) => toggle(device.serial, event.target.checked)} />
              {phoneName(device, words)} <span className="launch-serial">{device.serial}</span>
            </label>
          ))}
        </div>
        <label className="launch-group">
          {t('app:launch.group')}{' '}
          <select value={group} onChange={(event) => (event.target.value ? pickGroup(event.target.value) : setGroup(''))}>
            <option value="">{groups.size ? t('app:launch.groupNone') : t('app:launch.groupNoneDeclared')}</option>
            {[...groups].map(([name, serials]) => (
              <option key={name} value={name}>
                {t('app:launch.groupOption', { name, count: serials.length })}
              </option>
            ))}
          </select>
        </label>
        <div className="launch-run">
          <button type="button" className="button primary" disabled={notReady !== null || starting} onClick={() => void run()}>
            {starting ? t('app:launch.starting') : t('app:launch.runOn', { count: phones.length })}
          </button>
          <FlowFileButton disabledReason={phones.length === 0 ? t('app:launch.needPhones') : null} title={t('app:flow.runOnTitle')} run={runFlow} />
          {notReady && <span className="muted small">{notReady}</span>}
        </div>
      </fieldset>
      {/* The launch's results right under Run, brought into view when a launch starts; the schedules come after. */}
      {launch && (
        <div ref={results} data-testid="launch-latest">
          <LaunchResults launch={launch} />
          <LaunchGrid launch={launch} />
        </div>
      )}
      <SchedulesSection goal={goal} phones={target} />
    </div>
  );
}
