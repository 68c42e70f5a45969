import type { VirtualPhone } from '@amc/demo-phone';

/**
 * Drives a VirtualPhone through its shell only, the way an agent would: read `uiautomator dump`, pick a node,
 * send `input` commands at its coordinates. Every command sent is kept in `log`.
 */

export interface DumpNode {
  index: number;
  text: string;
  resourceId: string;
  className: string;
  pkg: string;
  contentDesc: string;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  enabled: boolean;
  focused: boolean;
  scrollable: boolean;
  longClickable: boolean;
  selected: boolean;
  bounds: { left: number; top: number; right: number; bottom: number };
}

export interface Selector {
  text?: string;
  textContains?: string;
  desc?: string;
  id?: string;
  className?: string;
  pkg?: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

function decode(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|apos);|&#(\d+);/g, (match, _name: string, code: string | undefined) =>
    code !== undefined ? String.fromCharCode(Number(code)) : (ENTITIES[match] ?? match),
  );
}

/** Parses the one-line uiautomator XML into a flat list of nodes in document order. */
export function parseDump(xml: string): DumpNode[] {
  const nodes: DumpNode[] = [];
  for (const match of xml.matchAll(/<node ([^>]*?)\/?>/g)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[1] as string).matchAll(/([\w-]+)="([^"]*)"/g)) attributes.set(attribute[1] as string, decode(attribute[2] as string));
    const flag = (name: string): boolean => attributes.get(name) === 'true';
    const bounds = /\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]/.exec(attributes.get('bounds') ?? '');
    if (!bounds) throw new Error(`node without bounds: ${match[0]}`);
    nodes.push({
      index: Number(attributes.get('index')),
      text: attributes.get('text') ?? '',
      resourceId: attributes.get('resource-id') ?? '',
      className: attributes.get('class') ?? '',
      pkg: attributes.get('package') ?? '',
      contentDesc: attributes.get('content-desc') ?? '',
      checkable: flag('checkable'),
      checked: flag('checked'),
      clickable: flag('clickable'),
      enabled: flag('enabled'),
      focused: flag('focused'),
      scrollable: flag('scrollable'),
      longClickable: flag('long-clickable'),
      selected: flag('selected'),
      bounds: { left: Number(bounds[1]), top: Number(bounds[2]), right: Number(bounds[3]), bottom: Number(bounds[4]) },
    });
  }
  return nodes;
}

export function matches(node: DumpNode, selector: Selector): boolean {
  return (
    (selector.text === undefined || node.text === selector.text) &&
    (selector.textContains === undefined || node.text.includes(selector.textContains)) &&
    (selector.desc === undefined || node.contentDesc === selector.desc) &&
    (selector.id === undefined || node.resourceId === selector.id || node.resourceId.endsWith(`:id/${selector.id}`)) &&
    (selector.className === undefined || node.className === selector.className) &&
    (selector.pkg === undefined || node.pkg === selector.pkg)
  );
}

export const centerOf = (node: DumpNode): { x: number; y: number } => ({
  x: Math.round((node.bounds.left + node.bounds.right) / 2),
  y: Math.round((node.bounds.top + node.bounds.bottom) / 2),
});

export class PhoneDriver {
  readonly log: string[] = [];
  private readonly signal = new AbortController().signal;

  constructor(readonly phone: VirtualPhone) {}

  /** Runs a shell command; throws on a nonzero exit unless `allowFailure`. */
  async sh(command: string, options: { allowFailure?: boolean } = {}): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    this.log.push(command);
    const result = await this.phone.shell(command, { signal: this.signal });
    const out = { stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8'), exitCode: result.exitCode };
    if (out.exitCode !== 0 && !options.allowFailure) throw new Error(`"${command}" exited ${out.exitCode}: ${out.stderr}`);
    return out;
  }

  async dump(): Promise<DumpNode[]> {
    const { stdout } = await this.sh('uiautomator dump /dev/tty');
    return parseDump(stdout);
  }

  async find(selector: Selector): Promise<DumpNode | undefined> {
    return (await this.dump()).find((node) => matches(node, selector));
  }

  async get(selector: Selector): Promise<DumpNode> {
    const nodes = await this.dump();
    const found = nodes.find((node) => matches(node, selector));
    if (!found) {
      const visible = nodes.map((node) => node.text || node.contentDesc).filter(Boolean);
      throw new Error(`No node matches ${JSON.stringify(selector)}; on screen: ${visible.join(' | ')}`);
    }
    return found;
  }

  async tap(selector: Selector): Promise<void> {
    const { x, y } = centerOf(await this.get(selector));
    await this.sh(`input tap ${x} ${y}`);
  }

  async longPress(selector: Selector): Promise<void> {
    const { x, y } = centerOf(await this.get(selector));
    await this.sh(`input swipe ${x} ${y} ${x} ${y} 600`);
  }

  /** Swipes the first scrollable list upwards until a node matching `selector` is fully inside it. */
  async scrollTo(selector: Selector, maxSwipes = 12): Promise<void> {
    for (let swipe = 0; swipe <= maxSwipes; swipe++) {
      const nodes = await this.dump();
      const list = nodes.find((node) => node.scrollable);
      const target = nodes.find((node) => matches(node, selector));
      if (target && (!list || (target.bounds.top >= list.bounds.top && target.bounds.bottom <= list.bounds.bottom))) return;
      if (!list) break;
      const x = Math.round((list.bounds.left + list.bounds.right) / 2);
      const from = list.bounds.bottom - 100;
      const to = Math.max(list.bounds.top + 100, from - 900);
      await this.sh(`input swipe ${x} ${from} ${x} ${to} 300`);
    }
    throw new Error(`Could not scroll to ${JSON.stringify(selector)}`);
  }

  /** `input text` with spaces as %s (ASCII only). */
  async type(text: string): Promise<void> {
    await this.sh(`input text '${text.replace(/ /g, '%s').replace(/'/g, `'\\''`)}'`);
  }

  /** Types any UTF-8 text through the ADB keyboard, selecting it first. */
  async typeUnicode(text: string): Promise<void> {
    await this.sh('ime set com.android.adbkeyboard/.AdbIME');
    await this.sh(`am broadcast -a ADB_INPUT_B64 --es msg ${Buffer.from(text, 'utf8').toString('base64')}`);
  }

  async key(name: string): Promise<void> {
    await this.sh(`input keyevent ${name}`);
  }

  /** The text of the first node after the one matching `label` that matches `value` (e.g. a row's summary). */
  async textAfter(label: Selector, value: Selector): Promise<string> {
    const nodes = await this.dump();
    const start = nodes.findIndex((node) => matches(node, label));
    if (start < 0) throw new Error(`No node matches ${JSON.stringify(label)}`);
    const found = nodes.slice(start + 1).find((node) => matches(node, value));
    if (!found) throw new Error(`Nothing matching ${JSON.stringify(value)} after ${JSON.stringify(label)}`);
    return found.text;
  }
}
