import type { StatusBar } from '../../shared/scene';
import type { UiNode } from './ui-hierarchy';

/** The package of the status bar, the navigation bar and the notification shade. */
export const SYSTEM_UI_PACKAGE = 'com.android.systemui';

/** The status bar is a thin System UI strip along the top (its height is at most this share of the screen's). */
const MAX_STATUS_BAR_SHARE = 0.1;

const STATUS_BAR_ID = /:id\/(?:keyguard_)?status_bar(?:_container)?$/;

/** A thin strip along the top edge: at most a tenth of the screen's height. */
function isTopStrip([, top, , bottom]: readonly number[], screenHeight: number): boolean {
  return top! <= 0 && bottom! > 0 && bottom! <= screenHeight * MAX_STATUS_BAR_SHARE;
}

/**
 * The status bar window: a thin System UI strip along the top. A full-screen System UI window (lock screen, shade,
 * or the older status bar window that grows to hold the shade) is not one, though it may hold one: see
 * `isStatusBarNode`.
 */
export function isStatusBarWindow(root: UiNode, screenHeight: number): boolean {
  return root.packageName === SYSTEM_UI_PACKAGE && isTopStrip(root.bounds, screenHeight);
}

/** The status bar inside a larger System UI window: a node named so by id that is a thin strip along the top. */
export function isStatusBarNode(node: UiNode, screenHeight: number): boolean {
  return STATUS_BAR_ID.test(node.resourceId) && isTopStrip(node.bounds, screenHeight);
}

const PERCENT = /(\d{1,3})\s*(?:%|percent|por cento|pour cent|prozent|퍼센트)/i;
const CHARGING = /charging|充电|carregando|cargando|en charge|lädt|충전/i;
const BATTERY_WORDS = /battery|电池|电量|bateria|batería|batterie|akku|배터리/i;
const NETWORK_WORDS = /wi-?fi|wlan|signal|\bbars?\b|mobile|cellular|\b(?:lte|[2-5]g|[2-5]g\+|h\+|edge)\b|airplane|flight mode|no sim|ethernet|vpn|hotspot|信号|网络|飞行/i;
const NETWORK_IDS = /:id\/(?:wifi|mobile|signal|sim|network|airplane|ethernet|vpn)/;
const TIME = /^\d{1,2}[:.]\d{2}/;
const MORE_NOTIFICATIONS = /(\d+)\s+more notifications?/i;

/** A status icon's description without the full stop TalkBack reads at its end. */
const spoken = (label: string) => label.trim().replace(/[.。]$/, '');

/**
 * Condenses a status bar window into facts: clock, battery level and charging, connectivity icons, the number of
 * notification icons, and any other indicator. Resource ids are tried first (they do not depend on the language),
 * then the English and a few other languages' words the icons describe themselves with.
 */
export function readStatusBar(root: UiNode): StatusBar {
  const status: StatusBar = {};
  const network: string[] = [];
  const indicators: string[] = [];
  let notifications = 0;

  const visit = (node: UiNode, inNotificationArea: boolean) => {
    if (!node.visible) return;
    const label = spoken(node.contentDesc) || node.text.trim();
    const id = node.resourceId;
    if (/:id\/clock$/.test(id) || (!status.time && TIME.test(node.text.trim()))) {
      if (label) status.time = node.text.trim() || label;
      return;
    }
    if (/:id\/battery/.test(id) || (label && BATTERY_WORDS.test(label))) {
      const level = PERCENT.exec(`${node.contentDesc} ${subtreeText(node)}`);
      if (level) status.battery = Math.min(100, Number(level[1]));
      if (CHARGING.test(node.contentDesc)) status.charging = true;
      return;
    }
    const notificationArea = inNotificationArea || /:id\/notification/i.test(id);
    if (label && notificationArea) {
      const more = MORE_NOTIFICATIONS.exec(label);
      notifications += more ? Number(more[1]) : 1;
    } else if (label && (NETWORK_IDS.test(id) || NETWORK_WORDS.test(label))) {
      if (!network.includes(label)) network.push(label);
    } else if (label && !indicators.includes(label)) {
      indicators.push(label);
    }
    for (const child of node.children) visit(child, notificationArea);
  };
  visit(root, false);

  if (network.length) status.network = network;
  if (notifications) status.notifications = notifications;
  if (indicators.length) status.indicators = indicators;
  return status;
}

function subtreeText(node: UiNode): string {
  return [node.text, ...node.children.map(subtreeText)].filter(Boolean).join(' ');
}
