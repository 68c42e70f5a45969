import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the newest step". */
const AT_END_PX = 24;

/**
 * Keeps a scroll area at its end as it grows (`growth` changes) or is resized, until the person scrolls up; then it
 * stays where they are and `following` is false until they scroll back down to the end or call `jumpToLatest`.
 */
export function useFollowNewest(area: RefObject<HTMLElement | null>, growth: string) {
  const [following, setFollowing] = useState(true);
  const followingNow = useRef(true);
  // Where the area was last seen (by a scroll event or our own scroll): a scroll event decides by which way the view
  // moved since, so a late event for our own scroll to the end cannot undo a wheel turned up just before it.
  const lastTop = useRef(0);
  const follow = (value: boolean) => {
    followingNow.current = value;
    setFollowing(value);
  };
  const scrollToEnd = (element: HTMLElement) => {
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  };

  useLayoutEffect(() => {
    const element = area.current;
    if (element && followingNow.current) scrollToEnd(element);
  }, [area, growth]);

  // The area shrinks when the window does or a panel above it opens (a waiting request): one that follows stays at
  // the end, as no new step may come to pull it there.
  useEffect(() => {
    const element = area.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followingNow.current) scrollToEnd(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [area]);

  const onScroll = useCallback(() => {
    const element = area.current;
    if (!element) return;
    const top = element.scrollTop;
    const atEnd = element.scrollHeight - top - element.clientHeight <= AT_END_PX;
    if (top > lastTop.current && atEnd && !followingNow.current) follow(true);
    else if (top < lastTop.current && !atEnd && followingNow.current) follow(false);
    lastTop.current = top;
  }, [area]);

  // A wheel turned up is the person's intent at once: the scroll event comes a frame later, by when a new step may
  // already have pulled the view back to the end.
  const onWheel = useCallback((event: { deltaY: number }) => {
    if (event.deltaY < 0 && followingNow.current) follow(false);
  }, []);

  const jumpToLatest = useCallback(() => {
    const element = area.current;
    follow(true);
    if (element) scrollToEnd(element);
  }, [area]);

  return { following, onScroll, onWheel, jumpToLatest };
}
