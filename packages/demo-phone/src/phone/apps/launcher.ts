import { APP_PACKAGES } from '../model';
import type { AppDefinition, UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import { button, FONT, W } from '../ui/widgets';

/** The home screen (Launcher3) and the Overview (recents) screen it hosts. */

export const LAUNCHER_PACKAGE = APP_PACKAGES.launcher;
export const LAUNCHER_ACTIVITY = '.uioverrides.QuickstepLauncher';

const GRID_TOP = 200;
const CELL_WIDTH = 270;
const CELL_HEIGHT = 300;
const COLUMNS = 4;

/** Bounds of the launcher icon cell for the app at `position` (0-based, row-major, 4 per row). */
export function launcherIconBounds(position: number): { left: number; top: number; right: number; bottom: number } {
  const column = position % COLUMNS;
  const row = Math.floor(position / COLUMNS);
  return rect(column * CELL_WIDTH, GRID_TOP + row * CELL_HEIGHT, (column + 1) * CELL_WIDTH, GRID_TOP + (row + 1) * CELL_HEIGHT);
}

export function buildHomeScreen(ctx: UiContext, apps: readonly AppDefinition[]): ViewNode {
  const icons = apps.map((app, position) =>
    node('android.widget.TextView', launcherIconBounds(position), {
      text: app.label,
      contentDesc: app.label,
      clickable: true,
      longClickable: true,
      onClick: () => ctx.nav.startApp(app.pkg),
      style: { appIcon: app.icon, textColor: '#FFFFFF', fontSize: FONT.summary, align: 'center', textTop: 214 },
    }),
  );
  const page = rect(0, ctx.frame.top, W, ctx.frame.bottom);
  const workspace = node('android.widget.ScrollView', page, { resourceId: `${LAUNCHER_PACKAGE}:id/workspace` }, [
    node('android.view.ViewGroup', page, {}, icons),
  ]);
  const dragLayer = node('android.widget.FrameLayout', page, { resourceId: `${LAUNCHER_PACKAGE}:id/drag_layer` }, [workspace]);
  const launcher = node('android.widget.FrameLayout', page, { resourceId: `${LAUNCHER_PACKAGE}:id/launcher` }, [dragLayer]);
  return launcher;
}

const CARD_HEIGHT = 420;
const CARD_GAP = 42;

export function buildRecentsScreen(
  ctx: UiContext,
  tasks: ReadonlyArray<{ app: AppDefinition }>,
  actions: { open(pkg: string): void; clearAll(): void },
): ViewNode {
  const { theme } = ctx;
  const children: ViewNode[] = [];
  let top = ctx.frame.top + 84;
  for (const { app } of tasks) {
    if (top + CARD_HEIGHT > ctx.frame.bottom - 231) break;
    const card = rect(84, top, W - 84, top + CARD_HEIGHT);
    children.push(
      node('android.widget.FrameLayout', card, {
        contentDesc: app.label,
        resourceId: `${LAUNCHER_PACKAGE}:id/task`,
        clickable: true,
        onClick: () => actions.open(app.pkg),
        style: { background: theme.background, radius: 42, raised: true },
      }, [
        node('android.widget.ImageView', rect(126, top + 42, 252, top + 168), { resourceId: `${LAUNCHER_PACKAGE}:id/icon`, style: { avatar: app.icon } }),
        node('android.widget.TextView', rect(294, top + 42, W - 126, top + 168), {
          text: app.label,
          style: { fontSize: FONT.body, textColor: theme.onSurface, bold: true },
        }),
      ]),
    );
    top += CARD_HEIGHT + CARD_GAP;
  }
  if (tasks.length === 0) {
    children.push(node('android.widget.TextView', rect(84, ctx.frame.top + 800, W - 84, ctx.frame.top + 900), {
      text: 'No recent items',
      style: { fontSize: FONT.body, textColor: '#FFFFFF', align: 'center' },
    }));
  } else {
    children.push(button(ctx, rect(W / 2 - 200, ctx.frame.bottom - 189, W / 2 + 200, ctx.frame.bottom - 63), {
      text: 'Clear all',
      variant: 'tonal',
      resourceId: `${LAUNCHER_PACKAGE}:id/clear_all`,
      onClick: actions.clearAll,
    }));
  }
  const page = rect(0, ctx.frame.top, W, ctx.frame.bottom);
  const overview = node('android.widget.FrameLayout', page, { resourceId: `${LAUNCHER_PACKAGE}:id/overview_panel` }, children);
  return overview;
}
