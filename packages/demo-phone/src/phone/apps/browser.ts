import { APP_PACKAGES, type BrowserState, type PhoneSettings } from '../model';
import { newScreen, type AppDefinition, type AppDialog, type Screen, type UiContext } from '../ui/app';
import { node, rect, type ViewNode } from '../ui/view';
import { button, dialogWindow, FONT, textField, textView, TOOLBAR_HEIGHT, W } from '../ui/widgets';
import { BOOKMARKS, normalizeUrl, pageAt, type WebPage } from './browser-pages';

/**
 * A minimal browser: an address bar with Go, a new-tab page with bookmarks, and the built-in pages with
 * their links. `am start -a android.intent.action.VIEW -d URL` opens a URL here.
 */

const PKG = APP_PACKAGES.browser;
const ADDRESS_FIELD = 'address';
const id = (name: string): string => `${PKG}:id/${name}`;

/** The dialog id of a page's site permission prompt. */
const SITE_PERMISSION = 'site-permission';

/** A screen showing `url` (what a VIEW intent opens), with the page's permission prompt open when it asks for one. */
export function browserPage(url: string): Screen {
  const screen = newScreen('page', { url: normalizeUrl(url) });
  if (pageAt(screen.params.url as string)?.asks) screen.dialog = SITE_PERMISSION;
  return screen;
}

function addressBar(ctx: UiContext, url: string | undefined): ViewNode {
  const top = ctx.frame.top;
  const field = textField(ctx, rect(32, top + 21, W - 220, top + TOOLBAR_HEIGHT - 21), {
    hint: 'Search or type URL',
    resourceId: id('url_bar'),
    binding: { id: ADDRESS_FIELD, maxLength: 2000 },
  });
  // The bar shows the page's address until the person starts typing another.
  if (url !== undefined && (ctx.screen.fields[ADDRESS_FIELD] ?? '') === '') field.text = url;
  const go = button(ctx, rect(W - 200, top + 21, W - 32, top + TOOLBAR_HEIGHT - 21), {
    text: 'Go',
    resourceId: id('go_button'),
    onClick: () => {
      const typed = ctx.screen.fields[ADDRESS_FIELD] ?? '';
      if (typed.trim() !== '') ctx.nav.push(browserPage(typed));
    },
  });
  return node('android.widget.FrameLayout', rect(0, top, W, top + TOOLBAR_HEIGHT), { resourceId: id('toolbar'), style: { background: ctx.theme.surfaceContainer } }, [field, go]);
}

function links(ctx: UiContext, top: number, entries: Array<{ text: string; url: string }>): ViewNode[] {
  return entries.map((link, index) =>
    node('android.widget.TextView', rect(63, top + index * 140, W - 63, top + index * 140 + 120), {
      text: link.text,
      clickable: true,
      onClick: () => ctx.nav.push(browserPage(link.url)),
      style: { fontSize: FONT.body, textColor: ctx.theme.primary },
    }),
  );
}

const isOffline = (settings: PhoneSettings) => settings.airplaneMode || !settings.wifi;
/** The page at `url` as the phone can load it: none when offline or when no such page exists. */
const loadedPage = (url: string, settings: PhoneSettings) => (isOffline(settings) ? undefined : pageAt(url));

/** What the browser shows (GET /state): the address of its page (null on the new-tab page or with no browser open), and the page's title when it loaded. */
export function browserShows(screen: Screen | undefined, settings: PhoneSettings): BrowserState {
  const url = screen?.route === 'page' ? String(screen.params.url) : null;
  const page = url === null ? undefined : loadedPage(url, settings);
  return { url, title: page?.title ?? null };
}

function pageContent(ctx: UiContext, url: string): ViewNode[] {
  const top = ctx.frame.top + TOOLBAR_HEIGHT + 63;
  const offline = isOffline(ctx.data.settings);
  const page = loadedPage(url, ctx.data.settings);
  if (!page) {
    const [title, code] = offline ? ['No internet', 'ERR_INTERNET_DISCONNECTED'] : ["This site can't be reached", 'ERR_NAME_NOT_RESOLVED'];
    return [
      textView(ctx, rect(63, top, W - 63, top + 100), title, { fontSize: FONT.title, resourceId: id('error_title') }),
      textView(ctx, rect(63, top + 130, W - 63, top + 230), code, { fontSize: FONT.summary, color: ctx.theme.onSurfaceVariant }),
    ];
  }
  const nodes: ViewNode[] = [textView(ctx, rect(63, top, W - 63, top + 100), page.title, { fontSize: FONT.title, bold: true })];
  let y = top + 140;
  for (const paragraph of page.paragraphs) {
    nodes.push(textView(ctx, rect(63, y, W - 63, y + 300), paragraph, { fontSize: FONT.summary, wrap: true }));
    y += 330;
  }
  nodes.push(...links(ctx, y, page.links));
  if (page.offers) nodes.push(offerSection(ctx, y, page.offers));
  return [node('android.webkit.WebView', rect(0, ctx.frame.top + TOOLBAR_HEIGHT, W, ctx.frame.bottom), { text: page.title, resourceId: id('web_contents') }, nodes)];
}

/**
 * The offers as Chrome reports them on real bank pages: their section has zero height (`[0,y][1080,y]`) while its
 * buttons have real bounds, and one button has no label of its own, only the link around it, whose box is empty.
 */
function offerSection(ctx: UiContext, top: number, offers: NonNullable<WebPage['offers']>): ViewNode {
  const buttons = offers.map((offer, index) => {
    const bounds = rect(63, top + index * 170, W - 63, top + index * 170 + 140);
    const onClick = () => ctx.nav.push(browserPage(offer.url));
    if (!offer.labelOnLink) return button(ctx, bounds, { text: offer.text, onClick });
    const unlabeled = node('android.widget.Button', bounds, { clickable: true, onClick, style: { background: ctx.theme.primary, radius: 70, label: offer.text, textColor: ctx.theme.onPrimary } });
    return node('android.view.View', rect(0, 0, 0, 0), { contentDesc: offer.text }, [unlabeled]);
  });
  return node('android.view.View', rect(0, top, W, top), { resourceId: id('offers') }, buttons);
}

function sitePermission(ctx: UiContext, question: string): AppDialog {
  return {
    title: question,
    root: dialogWindow(ctx, {
      title: question,
      buttons: [
        { text: 'Block', onClick: () => ctx.nav.closeDialog() },
        { text: 'Allow', onClick: () => ctx.nav.closeDialog() },
      ],
    }),
  };
}

function newTab(ctx: UiContext): ViewNode[] {
  const top = ctx.frame.top + TOOLBAR_HEIGHT + 63;
  return [textView(ctx, rect(63, top, W - 63, top + 100), 'Bookmarks', { fontSize: FONT.title }), ...links(ctx, top + 140, BOOKMARKS)];
}

export const browserApp: AppDefinition = {
  pkg: PKG,
  label: 'Chrome',
  mainActivity: 'com.google.android.apps.chrome.Main',
  icon: { letter: 'C', color: '#1A73E8' },
  rootScreen: () => newScreen('new-tab'),
  build(ctx) {
    const url = ctx.screen.route === 'page' ? String(ctx.screen.params.url) : undefined;
    const content = url === undefined ? newTab(ctx) : pageContent(ctx, url);
    const root = node('android.widget.LinearLayout', ctx.frame, { resourceId: id('main_content') }, [addressBar(ctx, url), ...content]);
    const asks = url === undefined || ctx.screen.dialog !== SITE_PERMISSION ? undefined : loadedPage(url, ctx.data.settings)?.asks;
    return { activity: 'org.chromium.chrome.browser.ChromeTabbedActivity', content: [root], ...(asks && { dialog: sitePermission(ctx, asks) }) };
  },
};
