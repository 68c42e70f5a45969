// The video session's table of states: every move it lists is allowed, every other is refused with both names.
import { describe, expect, it } from 'vitest';
import { canMove, IllegalVideoTransitionError, move, VIDEO_SESSION_STATES, VIDEO_SESSION_TRANSITIONS } from '../../../src/app/mirror/video-session-state';

describe('video session states', () => {
  it('Scenario: Only the declared moves between video states are allowed', () => {
    expect(VIDEO_SESSION_STATES).toEqual(['idle', 'starting', 'live', 'restarting', 'fell-back']);
    for (const from of VIDEO_SESSION_STATES) {
      for (const to of VIDEO_SESSION_STATES) {
        const declared = (VIDEO_SESSION_TRANSITIONS[from] as readonly string[]).includes(to);
        expect(canMove(from, to), `${from} -> ${to}`).toBe(declared);
        if (declared) expect(move(from, to)).toBe(to);
        else expect(() => move(from, to)).toThrow(new IllegalVideoTransitionError(from, to));
      }
    }
    // The paths the mirror relies on, and the ones it must never take.
    expect(canMove('idle', 'live')).toBe(false);
    expect(canMove('fell-back', 'live')).toBe(false);
    expect(canMove('idle', 'restarting')).toBe(false);
    expect(() => move('idle', 'live')).toThrow('the video session cannot go from idle to live');
    // Every state can be stopped back to idle, except idle itself (stopping it is no move).
    expect(VIDEO_SESSION_STATES.filter((state) => !canMove(state, 'idle'))).toEqual(['idle']);
  });
});
