// @vitest-environment jsdom
// The timeline's "follow the newest step" rule, driven through scroll areas whose sizes we set (jsdom lays nothing
// out): the orders of events a busy browser produces, which the e2e test meets only now and then.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFollowNewest } from '../../src/renderer/src/components/timeline/use-follow-newest';

afterEach(cleanup);

/** A scroll area whose content is `rows` × 40 px high in a 200 px box; the browser clamps scrollTop the same way. */
function sized(element: HTMLElement, rows: () => number) {
  element.dataset.sized = 'yes';
  let top = 0;
  const height = () => rows() * 40;
  Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => 200 });
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: height });
  Object.defineProperty(element, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, height() - 200));
    },
  });
}

let rows = 0;
function Timeline({ steps }: { steps: number }) {
  const area = useRef<HTMLDivElement | null>(null);
  const { following, onScroll, onWheel } = useFollowNewest(area, String(steps), 'task');
  return (
    <div
      data-testid="area"
      ref={(element) => {
        if (element && !element.dataset.sized) sized(element, () => rows);
        area.current = element;
      }}
      onScroll={onScroll}
      onWheel={onWheel}
    >
      {following ? 'following' : 'held'}
    </div>
  );
}

const area = () => screen.getByTestId('area');

/** Renders a timeline of `steps` rows; `grow` adds rows up to a new count, as new steps arriving do. */
function renderTimeline(steps: number) {
  rows = steps;
  const { rerender } = render(<Timeline steps={steps} />);
  return {
    grow: (to: number) => {
      rows = to;
      rerender(<Timeline steps={to} />);
    },
  };
}

/** The view lands at `top` and the browser reports the scroll. */
function scrollTo(top: number) {
  area().scrollTop = top;
  act(() => void fireEvent.scroll(area()));
}

describe('following the newest step', () => {
  it('a late scroll event for the view pulled to the end does not undo a wheel turned up', () => {
    const { grow } = renderTimeline(20);
    expect(area().scrollTop).toBe(600);
    grow(21);
    expect(area().scrollTop).toBe(640);
    // The person turns the wheel up; before the browser moves the view, the scroll event of the pull above arrives.
    fireEvent.wheel(area(), { deltaY: -100 });
    act(() => void fireEvent.scroll(area()));
    expect(area().textContent).toBe('held');
    grow(22);
    expect(area().scrollTop).toBe(640);
    // Then the wheel's scroll lands: the view stays there as steps keep coming.
    scrollTo(0);
    grow(23);
    expect(area().scrollTop).toBe(0);
    expect(area().textContent).toBe('held');
  });

  it('scrolling up without the wheel holds the view, and scrolling back down to the end follows again', () => {
    const { grow } = renderTimeline(20);
    scrollTo(300);
    expect(area().textContent).toBe('held');
    grow(21);
    expect(area().scrollTop).toBe(300);
    scrollTo(640);
    expect(area().textContent).toBe('following');
    grow(22);
    expect(area().scrollTop).toBe(680);
  });
});
