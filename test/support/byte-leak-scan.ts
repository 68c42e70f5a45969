/**
 * Seed D5's boundary, checked by shape rather than by one known string: raw screenshot bytes may reach the AI
 * planner and nothing else, so every other output (events, records, history lines, reports, `--json` lines,
 * IPC and WebSocket payloads) must hold no bytes in any disguise:
 * - a Buffer, typed array, ArrayBuffer or DataView (what IPC would carry as is);
 * - their JSON forms: `{"type":"Buffer","data":[...]}` and `{"0":137,"1":80,...}`;
 * - a long run of small integers (an image as a number list);
 * - a long base64 run (an image as text, data: URLs included);
 * - the base64 of bytes the test knows were on screen, however short.
 */

/** Fewer numbers than this in a row are ordinary data (bounds, counts); more look like bytes. */
export const LONG_NUMBER_RUN = 32;
/** Base64 alphabet runs at least this long look like an encoded blob (ids and tokens are far shorter). */
export const LONG_BASE64_RUN = 100;
/** An object with at least this many keys "0", "1", ... holding byte values is a serialized typed array. */
const INDEXED_OBJECT_KEYS = 4;

export interface ScanOptions {
  /** Bytes the test knows were captured (the screenshots): their base64 is searched for at any length. */
  knownBytes?: Uint8Array[];
}

const isByte = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;

function isIndexedByteObject(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length >= INDEXED_OBJECT_KEYS && keys.every((key, i) => key === String(i) && isByte(value[key]));
}

function knownBase64(options: ScanOptions): string[] {
  return (options.knownBytes ?? []).filter((b) => b.byteLength >= 6).map((b) => Buffer.from(b).toString('base64').slice(0, -4));
}

/** What in a string looks like encoded bytes. */
export function findBytesInText(text: string, where: string, options: ScanOptions = {}): string[] {
  const found: string[] = [];
  const base64Run = new RegExp(`[A-Za-z0-9+/_-]{${LONG_BASE64_RUN},}={0,2}`);
  const run = base64Run.exec(text);
  if (run) found.push(`${where}: a base64 run of ${run[0].length} characters ("${run[0].slice(0, 24)}...")`);
  const numberRun = new RegExp(`(?:\\b\\d{1,3}\\s*,\\s*){${LONG_NUMBER_RUN - 1}}\\d{1,3}\\b`);
  const numbers = numberRun.exec(text);
  if (numbers) found.push(`${where}: a run of ${LONG_NUMBER_RUN}+ small integers ("${numbers[0].slice(0, 24)}...")`);
  if (/"0"\s*:\s*\d{1,3}\s*,\s*"1"\s*:\s*\d{1,3}\s*,\s*"2"\s*:/.test(text)) found.push(`${where}: a typed array serialized as {"0":..,"1":..}`);
  if (/"type"\s*:\s*"Buffer"\s*,\s*"data"\s*:\s*\[/.test(text)) found.push(`${where}: a Buffer serialized as {"type":"Buffer","data":[..]}`);
  for (const encoded of knownBase64(options)) {
    if (text.includes(encoded)) found.push(`${where}: the base64 of a captured screenshot`);
  }
  return found;
}

/** What in a structured value (before any serialization: an IPC payload, an event object) holds bytes. */
export function findBytesInValue(value: unknown, where: string, options: ScanOptions = {}): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, at: string) => {
    if (node === null || node === undefined) return;
    if (typeof node === 'string') {
      found.push(...findBytesInText(node, at, options));
      return;
    }
    if (typeof node !== 'object') return;
    if (seen.has(node)) return;
    seen.add(node);
    if (ArrayBuffer.isView(node) || node instanceof ArrayBuffer || node instanceof SharedArrayBuffer) {
      found.push(`${at}: ${node.constructor.name} of ${node.byteLength} bytes`);
      return;
    }
    if (Array.isArray(node)) {
      let smallIntegers = 0;
      for (const [i, item] of node.entries()) {
        smallIntegers = isByte(item) ? smallIntegers + 1 : 0;
        if (smallIntegers === LONG_NUMBER_RUN) found.push(`${at}: an array with ${LONG_NUMBER_RUN}+ small integers in a row`);
        visit(item, `${at}[${i}]`);
      }
      return;
    }
    const record = node as Record<string, unknown>;
    if (record.type === 'Buffer' && Array.isArray(record.data)) found.push(`${at}: a Buffer serialized as {type:"Buffer",data:[..]}`);
    if (isIndexedByteObject(record)) found.push(`${at}: a typed array serialized as {"0":..,"1":..}`);
    for (const [key, item] of Object.entries(record)) visit(item, `${at}.${key}`);
  };
  visit(value, where);
  return found;
}

/** A JSON text (one event, one history line): parsed and scanned by structure, and scanned as text. */
export function findBytesInJson(text: string, where: string, options: ScanOptions = {}): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return findBytesInText(text, where, options);
  }
  return [...new Set([...findBytesInValue(parsed, where, options), ...findBytesInText(text, where, options)])];
}
