/**
 * Provider-neutral "model" behaviour for the loopback fake servers: a policy reads what the request carried
 * (goal, the turn's Scene, whether an image came along...) and answers with a FakeReply, which each fake
 * renders in its own provider's wire format. Failures (HTTP errors, hangs, malformed replies) are replies too.
 */
import type { TransportFailure } from './fake-http';
import { labelParts, type Scene, type SceneElement } from '../../src/shared/scene';

export type FakeProvider = 'anthropic' | 'openai';

export interface FakeTurn {
  provider: FakeProvider;
  /** 0-based index of this request among those the fake has served. */
  callIndex: number;
  model: string;
  system: string;
  /** The goal, read from the `<goal>` block of the prompt (null when absent). */
  goal: string | null;
  /** The newest `<scene>` block of the prompt, parsed (null when absent or unparseable). */
  scene: Scene | null;
  /** Text of the last user message. */
  lastUserText: string;
  /** All text of every message, joined (history, reflection...). */
  allText: string;
  hasImage: boolean;
  /** The bytes of the last image sent (a screenshot), as the model would see it. */
  image?: Buffer;
  toolNames: string[];
  /** Anthropic: tool_choice "any"/"tool"; OpenAI: "required". */
  forcedTool: boolean;
  /** Anthropic extended thinking requested. */
  thinkingEnabled: boolean;
}

export type FakeReply =
  | { kind: 'call'; tool: string; args: Record<string, unknown>; text?: string; thinking?: string }
  /** A tool call whose arguments are a raw string (OpenAI: sent as-is; Anthropic: cannot be malformed on the wire). */
  | { kind: 'raw-arguments'; tool: string; raw: string; text?: string }
  | { kind: 'calls'; calls: Array<{ tool: string; args: Record<string, unknown> }>; text?: string }
  | { kind: 'text'; text: string; thinking?: string }
  | { kind: 'http-error'; status: number; message?: string; retryAfterSeconds?: number }
  | TransportFailure
  | { kind: 'delay'; ms: number; then: FakeReply };

export type FakePolicy = (turn: FakeTurn) => FakeReply | Promise<FakeReply>;

const SCENE_BLOCK = /<scene>\s*([\s\S]*?)\s*<\/scene>/g;
const GOAL_BLOCK = /<goal>\s*([\s\S]*?)\s*<\/goal>/;

/** The goal block's content: a JSON string as the runtime writes it (older prompts, and hand-made ones, wrote it bare). */
function goalOf(block: string): string {
  try {
    const value: unknown = JSON.parse(block);
    return typeof value === 'string' ? value : block;
  } catch {
    return block;
  }
}

/** Reads goal and Scene from prompt texts (newest Scene wins). */
export function readPrompt(texts: readonly string[]): { goal: string | null; scene: Scene | null } {
  let goal: string | null = null;
  let scene: Scene | null = null;
  for (const text of texts) {
    const block = GOAL_BLOCK.exec(text)?.[1];
    if (block !== undefined) goal = goalOf(block);
    for (const match of text.matchAll(SCENE_BLOCK)) {
      try {
        scene = JSON.parse(match[1]!) as Scene;
      } catch {
        // Not a Scene: leave the previous one.
      }
    }
  }
  return { goal, scene };
}

function matches(element: SceneElement, wanted: string | RegExp): boolean {
  const labels = [element.text, element.desc, element.hint, element.resourceId].filter((l): l is string => !!l);
  if (typeof wanted !== 'string') return labels.some((label) => wanted.test(label));
  // A clickable row's text carries its children's labels (merged as the perception's labelParts splits them); any one may match.
  const parts = element.text ? [...labels, ...labelParts(element.text)] : labels;
  return parts.some((part) => part.toLowerCase() === wanted.toLowerCase());
}

/**
 * The first element whose text, desc, hint or resource id matches: a string matches a whole label or one part
 * of a merged row (`labelParts`), case-insensitively; a RegExp is tested against each label.
 */
export function findElement(scene: Scene | null, wanted: string | RegExp): SceneElement | undefined {
  return scene?.elements.find((element) => matches(element, wanted));
}

export const finish = (success: boolean, reason: string, text?: string): FakeReply => ({
  kind: 'call',
  tool: 'finish_task',
  args: { success, reason },
  ...(text ? { text } : {}),
});

/** One step of a scripted run: decides from the turn, or returns null when it is done and the next step should act. */
export type ScriptStep = (turn: FakeTurn) => FakeReply | null;

/** Tap the element labelled `label` (by id from the current Scene). Done once the label is gone or after one tap. */
export function tapLabel(label: string | RegExp): ScriptStep {
  return (turn) => {
    const element = findElement(turn.scene, label);
    if (!element) return null;
    return { kind: 'call', tool: 'tap', args: { element_id: element.id }, text: `Tapping ${element.text ?? element.desc ?? element.id}.` };
  };
}

/**
 * A policy that walks through `steps` one per model call: each step is used once, in order, unless it
 * answers null (then the next one is tried in the same call). After the last step it finishes successfully.
 * Corrective follow-ups (no Scene in the last message) get the same step again.
 */
export function scriptedPolicy(steps: ScriptStep[], done: FakeReply = finish(true, 'done')): FakePolicy {
  let next = 0;
  return (turn) => {
    while (next < steps.length) {
      const reply = steps[next]!(turn);
      next += 1;
      if (reply) return reply;
    }
    return done;
  };
}

/** A policy that answers from a fixed list, one per call, repeating the last one. */
export function sequencePolicy(...replies: FakeReply[]): FakePolicy {
  return (turn) => replies[Math.min(turn.callIndex, replies.length - 1)]!;
}

/** Approximate token count of a text, as the fakes report it in usage. */
export function approxTokens(body: string): number {
  return Math.ceil(body.length / 4);
}

/**
 * A server at the base URL that repeats the caller's key in its error body (an echoing proxy, some
 * OpenAI-compatible servers): bare, as a bearer header and inside a URL's credentials.
 */
export function echoKeyError(key: string, status: number): FakeReply {
  return { kind: 'http-error', status, message: `request refused for key ${key} (Authorization: Bearer ${key}; upstream https://proxy:${key}@upstream.local/v1)` };
}
