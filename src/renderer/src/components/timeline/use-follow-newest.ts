import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the newest step". */
const AT_END_PX = 24;

/**
 * Keeps a scroll area at its end as it grows (`growth` changes) or is resized, until the person scrolls up; then it
 * stays where they are and `following` is false until they scroll back down or call `jumpToLatest`.
 */
export function useFollowNewest(area: RefObject<HTMLElement | null>, growth: string) {
  const [following, setFollowing] = useState(true);
  const followingNow = useRef(true);
  const follow = (value: boolean) => {
    followingNow.current = value;
    setFollowing(value);
  };

  useLayoutEffect(() => {
    const element = area.current;
    if (element && followingNow.current) element.scrollTop = element.scrollHeight;
  }, [area, growth]);

  // The area shrinks when the window does or a panel above it opens (a waiting request): one that follows stays at
  // the end, as no new step may come to pull it there.
  useEffect(() => {
    const element = area.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (followingNow.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [area]);

  const onScroll = useCallback(() => {
    const element = area.current;
    if (!element) return;
    const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
    if (atEnd !== followingNow.current) follow(atEnd);
  }, [area]);

  // A wheel turned up is the person's intent at once: the scroll event comes a frame later, by when a new step may
  // already have pulled the view back to the end.
  const onWheel = useCallback((event: { deltaY: number }) => {
    if (event.deltaY < 0 && followingNow.current) follow(false);
  }, []);

  const jumpToLatest = useCallback(() => {
    const element = area.current;
    follow(true);
    if (element) element.scrollTop = element.scrollHeight;
  }, [area]);

  return { following, onScroll, onWheel, jumpToLatest };
}
