import type { Bounds } from '../../shared/scene';

/** One `<node>` of a `uiautomator dump`, attributes decoded. */
export interface UiNode {
  className: string;
  packageName: string;
  text: string;
  contentDesc: string;
  resourceId: string;
  /** Only reported by newer Android versions (and our virtual device); empty otherwise. */
  hint: string;
  bounds: Bounds;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  longClickable: boolean;
  scrollable: boolean;
  enabled: boolean;
  focused: boolean;
  selected: boolean;
  password: boolean;
  /** False only when the dump says `visible-to-user="false"` (newer Android versions). */
  visible: boolean;
  children: UiNode[];
}

export interface UiHierarchy {
  /** Display rotation from `<hierarchy rotation="N">`: 0 and 2 portrait-natural, 1 and 3 rotated. */
  rotation: number;
  roots: UiNode[];
}

export class UiDumpError extends Error {
  override name = 'UiDumpError';
}

const tagPattern = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g;
const attributePattern = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const boundsPattern = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return namedEntities[entity] ?? whole;
  });
}

function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(attributePattern)) {
    attributes.set(match[1]!, decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return attributes;
}

function parseBounds(value: string | undefined): Bounds {
  const match = value === undefined ? null : boundsPattern.exec(value);
  if (!match) return [0, 0, 0, 0];
  return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
}

function toNode(attributes: Map<string, string>): UiNode {
  const flag = (name: string) => attributes.get(name) === 'true';
  return {
    className: attributes.get('class') ?? '',
    packageName: attributes.get('package') ?? '',
    text: attributes.get('text') ?? '',
    contentDesc: attributes.get('content-desc') ?? '',
    resourceId: attributes.get('resource-id') ?? '',
    hint: attributes.get('hint') ?? '',
    bounds: parseBounds(attributes.get('bounds')),
    checkable: flag('checkable'),
    checked: flag('checked'),
    clickable: flag('clickable'),
    longClickable: flag('long-clickable'),
    scrollable: flag('scrollable'),
    enabled: attributes.get('enabled') !== 'false',
    focused: flag('focused'),
    selected: flag('selected'),
    password: flag('password'),
    visible: attributes.get('visible-to-user') !== 'false',
    children: [],
  };
}

/**
 * Parses the XML of `uiautomator dump`. Text around the document (e.g. the `UI hierchary dumped to:` line
 * of `uiautomator dump /dev/tty`) is ignored. Throws UiDumpError when there is no complete hierarchy.
 */
export function parseUiHierarchy(xml: string): UiHierarchy {
  const start = xml.indexOf('<hierarchy');
  const end = xml.lastIndexOf('</hierarchy>');
  if (start < 0 || end < start) {
    const said = xml.trim().split('\n')[0]?.slice(0, 200) || 'no output';
    throw new UiDumpError(`uiautomator gave no complete UI hierarchy (${said})`);
  }
  const document = xml.slice(start, end + '</hierarchy>'.length);
  let rotation = 0;
  const roots: UiNode[] = [];
  const stack: UiNode[] = [];
  for (const match of document.matchAll(tagPattern)) {
    const [, closing, name, attributeSource, selfClosing] = match;
    if (name === undefined) continue; // processing instruction or comment
    if (name === 'hierarchy') {
      if (!closing) rotation = Number(parseAttributes(attributeSource ?? '').get('rotation') ?? 0) || 0;
      continue;
    }
    if (name !== 'node') continue;
    if (closing) {
      stack.pop();
      continue;
    }
    const node = toNode(parseAttributes(attributeSource ?? ''));
    const parent = stack.at(-1);
    if (parent) parent.children.push(node);
    else roots.push(node);
    if (!selfClosing) stack.push(node);
  }
  return { rotation, roots };
}
