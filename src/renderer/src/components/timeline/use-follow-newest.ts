import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the newest step". */
const AT_END_PX = 24;

/** Marks the end of what is followed inside the area (the newest step and the result, not the log below them). */
export const FOLLOW_END_ATTRIBUTE = 'data-follow-end';

/** The scroll position that shows the end of the followed part (its bottom at the area's bottom), else the very end. */
function endTop(element: HTMLElement): number {
  const max = element.scrollHeight - element.clientHeight;
  const end = element.querySelector<HTMLElement>(`[${FOLLOW_END_ATTRIBUTE}]`);
  if (!end) return max;
  const bottom = end.getBoundingClientRect().bottom - element.getBoundingClientRect().top + element.scrollTop;
  return Math.min(max, Math.max(0, Math.round(bottom - element.clientHeight)));
}

/** Whether the last card of the followed part (a step, or the result) has any of its height inside the area. */
function latestInView(element: HTMLElement): boolean {
  const cards = element.querySelectorAll<HTMLElement>(`[${FOLLOW_END_ATTRIBUTE}] [data-testid="step-card"], [${FOLLOW_END_ATTRIBUTE}] article`);
  const latest = cards[cards.length - 1];
  if (!latest) return true;
  const area = element.getBoundingClientRect();
  const box = latest.getBoundingClientRect();
  return box.top < area.bottom - 1 && box.bottom > area.top + 1;
}

/**
 * Keeps a scroll area at the end of its followed part as it grows (`growth` changes) or is resized, until the person
 * scrolls up; then it stays where they are and `following` is false until they scroll back down, call
 * `jumpToLatest`, or another `subject` (a new task) is shown.
 */
export function useFollowNewest(area: RefObject<HTMLElement | null>, growth: string, subject: string) {
  const [following, setFollowing] = useState(true);
  const followingNow = useRef(true);
  // Whether the latest step (or the result) shows at least in part: "Jump to latest" is offered only when it does not.
  const [endInView, setEndInView] = useState(true);
  const seeEnd = (element: HTMLElement) => setEndInView(latestInView(element));
  // Where the area was last seen (by a scroll event or our own scroll): a scroll event decides by which way the view
  // moved since, so a late event for our own scroll to the end cannot undo a wheel turned up just before it.
  const lastTop = useRef(0);
  const follow = (value: boolean) => {
    followingNow.current = value;
    setFollowing(value);
  };
  const scrollToEnd = (element: HTMLElement) => {
    element.scrollTop = endTop(element);
    lastTop.current = element.scrollTop;
  };
  const shownSubject = useRef(subject);

  useLayoutEffect(() => {
    // Another task: it is followed from its start, whatever the person did in the last one.
    if (shownSubject.current !== subject) {
      shownSubject.current = subject;
      follow(true);
    }
    const element = area.current;
    if (element && followingNow.current) scrollToEnd(element);
    if (element) seeEnd(element);
  }, [area, growth, subject]);

  // The area shrinks when the window does or a panel above it opens (a waiting request): one that follows stays at
  // the end, as no new step may come to pull it there.
  useEffect(() => {
    const element = area.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followingNow.current) scrollToEnd(element);
      seeEnd(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [area]);

  const onScroll = useCallback(() => {
    const element = area.current;
    if (!element) return;
    const top = element.scrollTop;
    const atEnd = top >= endTop(element) - AT_END_PX;
    if (top > lastTop.current && atEnd && !followingNow.current) follow(true);
    else if (top < lastTop.current && !atEnd && followingNow.current) follow(false);
    lastTop.current = top;
    seeEnd(element);
  }, [area]);

  // A wheel turned up is the person's intent at once: the scroll event comes a frame later, by when a new step may
  // already have pulled the view back to the end.
  const onWheel = useCallback((event: { deltaY: number }) => {
    if (event.deltaY < 0 && followingNow.current) follow(false);
  }, []);

  const jumpToLatest = useCallback(() => {
    const element = area.current;
    follow(true);
    if (element) {
      scrollToEnd(element);
      seeEnd(element);
    }
  }, [area]);

  /** Offered only while the person has scrolled away and the latest step is out of view. */
  const offerJump = !following && !endInView;
  return { following, offerJump, onScroll, onWheel, jumpToLatest };
}
