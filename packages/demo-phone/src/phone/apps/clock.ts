import { APP_PACKAGES, type Alarm } from '../model';
import { newScreen, type AppDefinition, type AppDialog, type UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import {
  dialogWindow,
  fab,
  FONT,
  iconButton,
  scrollList,
  switchWidget,
  textField,
  textView,
  W,
  type ListItem,
} from '../ui/widgets';
import { twoDigits } from './common';

/** Clock: alarms (add with hour and minute, edit, toggle, delete) plus a clock tab; timers are not supported. */

const PKG = APP_PACKAGES.clock;
const TABS = [
  { key: 'alarm', label: 'Alarm' },
  { key: 'clock', label: 'Clock' },
  { key: 'timer', label: 'Timer' },
  { key: 'stopwatch', label: 'Stopwatch' },
] as const;
const TAB_BAR_HEIGHT = 210;
const ALARM_ROW_HEIGHT = 273;

const formatAlarmTime = (alarm: Pick<Alarm, 'hour' | 'minute'>): string => `${twoDigits(alarm.hour)}:${twoDigits(alarm.minute)}`;

function openTimeDialog(ctx: UiContext, editing: number): void {
  const alarm = ctx.data.alarms[editing];
  ctx.screen.params = { ...ctx.screen.params, editing, error: 0 };
  ctx.screen.fields = alarm ? { hour: twoDigits(alarm.hour), minute: twoDigits(alarm.minute) } : {};
  ctx.nav.openDialog('time');
  ctx.nav.focus('hour');
}

function alarmsTab(ctx: UiContext, bottom: number): ViewNode[] {
  const { data, theme } = ctx;
  const order = data.alarms
    .map((alarm, index) => ({ alarm, index }))
    .sort((a, b) => a.alarm.hour * 60 + a.alarm.minute - (b.alarm.hour * 60 + b.alarm.minute));
  const items: ListItem[] = order.map(({ alarm, index }) => ({
    height: ALARM_ROW_HEIGHT,
    build: (bounds) => {
      const time = formatAlarmTime(alarm);
      const card = rect(42, bounds.top + 21, W - 42, bounds.bottom - 21);
      return node('android.widget.FrameLayout', card, { resourceId: `${PKG}:id/alarm_card`, style: { background: theme.surfaceContainer, radius: 42 } }, [
        node('android.widget.TextView', rect(105, card.top + 30, 560, card.top + 160), {
          text: time,
          resourceId: `${PKG}:id/digital_clock`,
          clickable: true,
          onClick: () => openTimeDialog(ctx, index),
          style: { fontSize: 110, textColor: alarm.enabled ? theme.onSurface : theme.onSurfaceVariant },
        }),
        textView(ctx, rect(105, card.top + 160, 560, card.top + 215), alarm.enabled ? 'Alarm' : 'Alarm, off', {
          fontSize: FONT.summary,
          color: theme.onSurfaceVariant,
          resourceId: `${PKG}:id/label`,
        }),
        iconButton(ctx, rect(W - 378, card.top + 53, W - 252, card.top + 179), {
          icon: 'delete',
          contentDesc: `Delete ${time} alarm`,
          resourceId: `${PKG}:id/delete`,
          onClick: () => data.alarms.splice(index, 1),
        }),
        switchWidget(ctx, rect(W - 84 - 137, card.top + 74, W - 84, card.top + 158), {
          checked: alarm.enabled,
          resourceId: `${PKG}:id/onoff`,
          contentDesc: `${time} alarm`,
          onClick: () => (alarm.enabled = !alarm.enabled),
        }),
      ]);
    },
  }));
  return [
    textView(ctx, rect(63, ctx.frame.top, W - 63, ctx.frame.top + 189), 'Alarm', { fontSize: FONT.title + 6, resourceId: `${PKG}:id/title` }),
    scrollList(ctx, {
      id: 'alarms',
      bounds: rect(0, ctx.frame.top + 189, W, bottom),
      items,
      resourceId: `${PKG}:id/alarm_recycler_view`,
      paddingBottom: 294,
      emptyText: 'No alarms',
    }),
    fab(ctx, { contentDesc: 'Add alarm', resourceId: `${PKG}:id/fab`, onClick: () => openTimeDialog(ctx, -1), bottom }),
  ];
}

function clockTab(ctx: UiContext): ViewNode[] {
  const { now } = ctx;
  const time = `${twoDigits(now.getHours())}:${twoDigits(now.getMinutes())}`;
  const date = now.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' });
  return [
    textView(ctx, rect(63, ctx.frame.top + 300, W - 63, ctx.frame.top + 520), time, { fontSize: 190, align: 'center', resourceId: `${PKG}:id/digital_clock` }),
    textView(ctx, rect(63, ctx.frame.top + 540, W - 63, ctx.frame.top + 620), date, {
      fontSize: FONT.body,
      align: 'center',
      color: ctx.theme.onSurfaceVariant,
      resourceId: `${PKG}:id/date`,
    }),
  ];
}

function unsupportedTab(ctx: UiContext, label: string, message: string): ViewNode[] {
  return [
    textView(ctx, rect(63, ctx.frame.top, W - 63, ctx.frame.top + 189), label, { fontSize: FONT.title + 6, resourceId: `${PKG}:id/title` }),
    textView(ctx, rect(84, ctx.frame.top + 600, W - 84, ctx.frame.top + 760), message, {
      align: 'center',
      wrap: true,
      color: ctx.theme.onSurfaceVariant,
    }),
  ];
}

function tabBar(ctx: UiContext, current: string): ViewNode {
  const { theme } = ctx;
  const top = ctx.frame.bottom - TAB_BAR_HEIGHT;
  const tabs = TABS.map((tab, index) => {
    const bounds = rect(index * 270, top, (index + 1) * 270, ctx.frame.bottom);
    const selected = tab.key === current;
    return node('android.widget.FrameLayout', bounds, {
      contentDesc: tab.label,
      clickable: true,
      selected,
      onClick: () => {
        ctx.screen.params = { tab: tab.key };
      },
      style: selected ? { background: theme.primaryContainer, radius: 0 } : undefined,
    }, [
      node('android.widget.TextView', rect(bounds.left, top + 120, bounds.right, top + 180), {
        text: tab.label,
        resourceId: `${PKG}:id/navigation_bar_item_large_label_view`,
        style: { fontSize: FONT.summary, textColor: theme.onSurface, align: 'center', bold: selected },
      }),
      node('android.widget.ImageView', rect(bounds.left + 93, top + 30, bounds.right - 93, top + 114), {
        resourceId: `${PKG}:id/navigation_bar_item_icon_view`,
        style: { icon: 'alarm', iconColor: theme.onSurfaceVariant },
      }),
    ]);
  });
  return node('android.widget.FrameLayout', rect(0, top, W, ctx.frame.bottom), {
    resourceId: `${PKG}:id/bottom_navigation`,
    style: { background: theme.surfaceContainer },
  }, [node('android.view.ViewGroup', rect(0, top, W, ctx.frame.bottom), {}, tabs)]);
}

function timeDialog(ctx: UiContext): AppDialog {
  const { screen, data, nav, theme } = ctx;
  const editing = Number(screen.params.editing ?? -1);
  const title = editing >= 0 ? 'Change alarm time' : 'Set alarm time';
  const save = (): void => {
    const hour = Number.parseInt(screen.fields.hour ?? '', 10);
    const minute = Number.parseInt(screen.fields.minute ?? '', 10);
    if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59)) {
      screen.params = { ...screen.params, error: 1 };
      return;
    }
    const alarm = data.alarms[editing];
    if (alarm) {
      alarm.hour = hour;
      alarm.minute = minute;
      alarm.enabled = true;
    } else {
      data.alarms.push({ hour, minute, enabled: true });
    }
    nav.closeDialog();
  };
  const error = Number(screen.params.error) === 1;
  return {
    title,
    root: dialogWindow(ctx, {
      title,
      content: {
        height: 315,
        build: (top, left, right) => {
          const middle = (left + right) / 2;
          const nodes: ViewNode[] = [
            textField(ctx, rect(left, top, middle - 42, top + 168), {
              hint: 'hh',
              resourceId: `${PKG}:id/input_hour`,
              binding: { id: 'hour', accept: /[0-9]/, maxLength: 2 },
            }),
            textView(ctx, rect(middle - 42, top, middle + 42, top + 168), ':', { fontSize: FONT.title, align: 'center' }),
            textField(ctx, rect(middle + 42, top, right, top + 168), {
              hint: 'mm',
              resourceId: `${PKG}:id/input_minute`,
              binding: { id: 'minute', accept: /[0-9]/, maxLength: 2 },
            }),
            textView(ctx, rect(left, top + 180, middle - 42, top + 230), 'Hour (0-23)', { fontSize: FONT.small, color: theme.onSurfaceVariant }),
            textView(ctx, rect(middle + 42, top + 180, right, top + 230), 'Minute', { fontSize: FONT.small, color: theme.onSurfaceVariant }),
          ];
          if (error) {
            nodes.push(textView(ctx, rect(left, top + 240, right, top + 300), 'Enter a valid time', {
              fontSize: FONT.small,
              color: '#B3261E',
              resourceId: `${PKG}:id/error`,
            }));
          }
          return nodes;
        },
      },
      buttons: [
        { text: 'Cancel', onClick: () => nav.closeDialog() },
        { text: 'OK', onClick: save },
      ],
    }),
  };
}

export const clockApp: AppDefinition = {
  pkg: PKG,
  label: 'Clock',
  mainActivity: '.DeskClock',
  icon: { letter: 'A', color: '#E37400' },
  rootScreen: () => newScreen('main', { tab: 'alarm' }),
  build(ctx) {
    const tab = String(ctx.screen.params.tab ?? 'alarm');
    const bottom = ctx.frame.bottom - TAB_BAR_HEIGHT;
    const body =
      tab === 'alarm'
        ? alarmsTab(ctx, bottom)
        : tab === 'clock'
          ? clockTab(ctx)
          : tab === 'timer'
            ? unsupportedTab(ctx, 'Timer', 'Timers are not available on this phone.')
            : unsupportedTab(ctx, 'Stopwatch', 'The stopwatch is not available on this phone.');
    return {
      activity: '.DeskClock',
      content: [node('android.view.ViewGroup', ctx.frame, { resourceId: `${PKG}:id/desk_clock_pager` }, [...body, tabBar(ctx, tab)])],
      dialog: ctx.screen.dialog === 'time' ? timeDialog(ctx) : undefined,
    };
  },
};
