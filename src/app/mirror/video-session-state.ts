/**
 * The video session's states and the only moves between them, declared once: the session asks this table before
 * every change, so a path the table does not list (a frame painting a stopped session, a restart of a session
 * that never ran) is refused where it happens instead of leaving flags that disagree.
 */
export const VIDEO_SESSION_TRANSITIONS = {
  /** No server on the phone: never started, stopped, or stopped because nobody watched. */
  idle: ['starting'],
  /** The setting is read, the server provisioned, pushed and started; no picture yet. */
  starting: ['live', 'restarting', 'fell-back', 'idle'],
  /** Frames flow from the stream; the screenshot pump rests. */
  live: ['restarting', 'fell-back', 'idle'],
  /** The display changed (rotation, resize): a new stream starts at the new size; another change restarts again. */
  restarting: ['restarting', 'live', 'fell-back', 'idle'],
  /** The video gave up with a reason in plain words; screenshots show the phone until the next try. */
  'fell-back': ['starting', 'idle'],
} as const satisfies Record<string, readonly string[]>;

export type VideoSessionState = keyof typeof VIDEO_SESSION_TRANSITIONS;

export const VIDEO_SESSION_STATES = Object.keys(VIDEO_SESSION_TRANSITIONS) as VideoSessionState[];

/** A move the table does not allow: a mistake in the session's code, never something a phone can cause. */
export class IllegalVideoTransitionError extends Error {
  constructor(
    readonly from: VideoSessionState,
    readonly to: VideoSessionState,
  ) {
    super(`the video session cannot go from ${from} to ${to}`);
    this.name = 'IllegalVideoTransitionError';
  }
}

export function canMove(from: VideoSessionState, to: VideoSessionState): boolean {
  return (VIDEO_SESSION_TRANSITIONS[from] as readonly VideoSessionState[]).includes(to);
}

/** Returns `to` when the table allows the move; throws otherwise. */
export function move(from: VideoSessionState, to: VideoSessionState): VideoSessionState {
  if (!canMove(from, to)) throw new IllegalVideoTransitionError(from, to);
  return to;
}
