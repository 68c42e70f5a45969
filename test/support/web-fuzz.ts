// Random and mutated WebSocket frames for the web host: invalid UTF-8, lying lengths, fragments, binary where
// text is expected, random JSON, and schema-violating requests for every method. Shared by the fuzz test
// (a thousand frames) and the hardening bench (ten thousand).
import { methodNames } from '../../src/shared/contract';
import { OPCODE, openRawWebSocket, type FrameOptions, type RawWebSocket } from './raw-websocket';

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Frame {
  opcode: number;
  payload: Uint8Array;
  options?: FrameOptions;
}

/** What one fuzz step sends; `fatal` steps break the protocol, so the host must close that connection. */
interface FuzzStep {
  kind: string;
  frames: Frame[];
  fatal: boolean;
}

export interface FuzzResult {
  frames: number;
  connections: number;
  /** Connections the host closed, by close code (1007 bad UTF-8, 1009 too big, 1002 protocol error). */
  closedBy: Record<string, number>;
  byKind: Record<string, number>;
}

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 2 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, 3.5, 65536][Math.floor(random() * 6)];
    case 3:
      return 'x'.repeat(Math.floor(random() * 400));
    case 4:
      return ['', '../../etc/passwd', '<script>', '\u0000', '127.0.0.1:5555', '{"nested": true}'][Math.floor(random() * 6)];
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, randomValue(random, depth + 1)]));
  }
}

/**
 * A request for a real method whose input can never be valid: every input schema is a strict object, and
 * `__fuzz` is a key none declares. (So no fuzz request can stop the task or change a setting.)
 */
function invalidRequest(random: () => number): string {
  const method = methodNames[Math.floor(random() * methodNames.length)]!;
  const extra = randomValue(random);
  const input = { ...(typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? extra : { value: extra }), __fuzz: 1 };
  return JSON.stringify({ id: Math.floor(random() * 1e6), method, input });
}

function mutate(text: string, random: () => number): Uint8Array {
  const bytes = Buffer.from(text);
  const position = Math.floor(random() * bytes.length);
  const choice = random();
  // A flipped bit, a removed byte or a duplicated byte: JSON that is almost right.
  if (choice < 0.4) bytes[position] = bytes[position]! ^ (1 << Math.floor(random() * 7));
  else if (choice < 0.7) return Buffer.concat([bytes.subarray(0, position), bytes.subarray(position + 1)]);
  else return Buffer.concat([bytes.subarray(0, position + 1), bytes.subarray(position)]);
  // A flipped high bit can make the text invalid UTF-8; keep such frames for the invalid-UTF-8 kind.
  return Buffer.from(bytes.toString('utf8'));
}

const encoder = new TextEncoder();

function fuzzStep(random: () => number): FuzzStep {
  const roll = Math.floor(random() * 11);
  const text = (value: string | Uint8Array, options?: FrameOptions): Frame => ({
    opcode: OPCODE.text,
    payload: typeof value === 'string' ? encoder.encode(value) : value,
    options,
  });
  switch (roll) {
    case 0: {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 16) }, () => Math.floor(random() * 256));
      bytes[Math.floor(random() * bytes.length)] = 0xff;
      return { kind: 'invalid-utf8', frames: [text(bytes)], fatal: true };
    }
    case 1:
      return { kind: 'oversized', frames: [text(new Uint8Array(0), { claimedLength: 2 * 1024 * 1024 + Math.floor(random() * 1e8) })], fatal: true };
    case 2: {
      // A request split over fragments: valid, the host answers it.
      const request = encoder.encode(invalidRequest(random));
      const cut = 1 + Math.floor(random() * (request.length - 2));
      return {
        kind: 'fragmented',
        frames: [
          { opcode: OPCODE.text, payload: request.subarray(0, cut), options: { fin: false } },
          { opcode: OPCODE.continuation, payload: request.subarray(cut) },
        ],
        fatal: false,
      };
    }
    case 3:
      return { kind: 'orphan-continuation', frames: [{ opcode: OPCODE.continuation, payload: encoder.encode('{"id":1}') }], fatal: true };
    case 4:
      return { kind: 'binary', frames: [{ opcode: OPCODE.binary, payload: Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256)) }], fatal: false };
    case 5:
      return { kind: 'random-json', frames: [text(JSON.stringify(randomValue(random)) ?? 'null')], fatal: false };
    case 6:
    case 7:
      return { kind: 'invalid-request', frames: [text(invalidRequest(random))], fatal: false };
    case 8:
      return { kind: 'mutated-request', frames: [text(mutate(invalidRequest(random), random))], fatal: false };
    case 9:
      return { kind: 'unmasked', frames: [text('{"id":1,"method":"app.info","input":{}}', { masked: false })], fatal: true };
    default:
      return { kind: 'reserved-bits', frames: [text('{}', { rsv: 1 + Math.floor(random() * 7) })], fatal: true };
  }
}

/**
 * Sends `count` fuzz frames to a live web host. Harmless frames share one connection (replaced when it ends);
 * each protocol-breaking step gets its own and waits for the host to close it.
 */
export async function runWebFuzz(target: { port: number; token: string; origin: string }, count: number, seed = 1): Promise<FuzzResult> {
  const random = seededRandom(seed);
  const result: FuzzResult = { frames: 0, connections: 0, closedBy: {}, byKind: {} };
  const open = async () => {
    result.connections++;
    return openRawWebSocket(target.port, `/ws?token=${target.token}`, target.origin);
  };
  let shared: RawWebSocket | undefined;
  let sharedEnded = false;
  while (result.frames < count) {
    const step = fuzzStep(random);
    result.byKind[step.kind] = (result.byKind[step.kind] ?? 0) + 1;
    if (step.fatal) {
      const socket = await open();
      for (const frame of step.frames) socket.send(frame.opcode, frame.payload, frame.options);
      const closed = await socket.closed;
      result.closedBy[String(closed.code)] = (result.closedBy[String(closed.code)] ?? 0) + 1;
    } else {
      if (!shared || sharedEnded) {
        shared = await open();
        sharedEnded = false;
        const current = shared;
        void current.closed.then(() => {
          if (shared === current) sharedEnded = true;
        });
      }
      for (const frame of step.frames) shared.send(frame.opcode, frame.payload, frame.options);
      // Let the host read and answer now and then, as a window would.
      if (result.frames % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    result.frames += step.frames.length;
  }
  shared?.socket.end();
  return result;
}
