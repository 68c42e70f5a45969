import type { PhoneSettings } from '../../model';
import { SCREEN_HEIGHT } from '../../properties';
import type { UiContext } from '../app';
import { SYSTEM_UI_PACKAGE } from '../system-ui';
import { node, rect, type IconName, type UiWindow, type ViewNode } from '../view';
import { FONT, STATUS_BAR_BOTTOM, W } from '../widgets';
import { Overlay, type Point } from './overlay';

const PULL_DISTANCE = 200;
const PANEL_BOTTOM = 1100;
const TILES: Array<{ key: keyof PhoneSettings; label: string; icon?: IconName }> = [
  { key: 'wifi', label: 'Internet', icon: 'wifi' },
  { key: 'bluetooth', label: 'Bluetooth', icon: 'bluetooth' },
  { key: 'airplaneMode', label: 'Airplane mode', icon: 'airplane' },
  { key: 'darkTheme', label: 'Dark theme' },
];

/**
 * The notification shade with the quick settings tiles: pulled down from the status bar (or by
 * `cmd statusbar expand-notifications`), pushed back up, closed by BACK and HOME.
 */
export class ShadeLayer extends Overlay {
  private expanded = false;

  constructor(private readonly onChange: () => void) {
    super();
  }

  get shown(): boolean {
    return this.expanded;
  }

  expand(): void {
    this.expanded = true;
  }

  dismiss(): void {
    this.expanded = false;
  }

  override swipe(from: Point, to: Point): boolean {
    if (!this.expanded && from.y < STATUS_BAR_BOTTOM && to.y - from.y >= PULL_DISTANCE) {
      this.expanded = true;
      return true;
    }
    if (this.expanded && from.y - to.y >= PULL_DISTANCE) {
      this.expanded = false;
      return true;
    }
    return false;
  }

  windows(ctx: UiContext): UiWindow[] {
    const { theme, data } = ctx;
    const tileWidth = (W - 3 * 42) / 2;
    const tiles: ViewNode[] = TILES.map((tile, index) => {
      const left = 42 + (index % 2) * (tileWidth + 42);
      const top = STATUS_BAR_BOTTOM + 180 + Math.floor(index / 2) * 210;
      const on = data.settings[tile.key];
      return node('android.widget.LinearLayout', rect(left, top, left + tileWidth, top + 168), {
        contentDesc: tile.label,
        checkable: true,
        checked: on,
        clickable: true,
        onClick: () => {
          data.settings[tile.key] = !data.settings[tile.key];
          this.onChange();
        },
        style: { background: on ? theme.primary : theme.surfaceHigh, radius: 84 },
      }, [
        node('android.widget.TextView', rect(left + 42, top, left + tileWidth - 21, top + 168), {
          text: tile.label,
          resourceId: `${SYSTEM_UI_PACKAGE}:id/tile_label`,
          style: { fontSize: FONT.summary, textColor: on ? theme.onPrimary : theme.onSurface, icon: tile.icon, iconColor: on ? theme.onPrimary : theme.onSurface },
        }),
      ]);
    });
    const panel = node('android.widget.FrameLayout', rect(0, 0, W, PANEL_BOTTOM), {
      resourceId: `${SYSTEM_UI_PACKAGE}:id/quick_settings_panel`,
      style: { background: theme.surfaceContainer },
    }, tiles);
    const scrim = node('android.widget.FrameLayout', rect(0, 0, W, SCREEN_HEIGHT), {
      resourceId: `${SYSTEM_UI_PACKAGE}:id/notification_panel`,
      clickable: true,
      onClick: () => this.dismiss(),
      style: { background: theme.dark ? '#000000' : '#3C3C3C' },
    }, [panel]);
    return [{ pkg: SYSTEM_UI_PACKAGE, root: scrim }];
  }
}
