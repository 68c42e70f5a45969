import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface RowMenuItem {
  /** The words shown. */
  text: string;
  /** The accessible name when the words alone would not say which row (the goal named). */
  label?: string;
  title?: string;
  danger?: boolean;
  onSelect: () => void;
}

/** Room kept between the menu and the window's edge, in pixels. */
const EDGE_PX = 8;

/**
 * One row's actions behind a single button, so a History row stays one line at 1280 px. A menu button as the ARIA
 * pattern has it: Enter, Space or ↓ opens it on the first item (↑ on the last), ↑/↓/Home/End move, Esc closes it
 * and gives the focus back to the button, Tab or a click elsewhere closes it. It is placed in the window (fixed), below
 * the button or above it when the window ends first, so the list's own scrolling never hides it.
 */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const [open, setOpen] = useState<'first' | 'last' | null>(null);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const id = useId();
  const entries = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const close = (focusButton: boolean) => {
    setOpen(null);
    setPlace(null);
    if (focusButton) button.current?.focus();
  };

  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    const anchor = button.current.getBoundingClientRect();
    const height = menu.current.offsetHeight;
    const below = anchor.bottom + height + EDGE_PX <= window.innerHeight;
    setPlace({ top: below ? anchor.bottom : Math.max(EDGE_PX, anchor.top - height), right: Math.max(EDGE_PX, window.innerWidth - anchor.right) });
  }, [open]);

  // Once placed (a hidden menu takes no focus), the focus goes to its first or its last item.
  useLayoutEffect(() => {
    if (!open || !place) return;
    const list = entries();
    (open === 'first' ? list[0] : list.at(-1))?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new place (a menu just opened) moves the focus
  }, [place]);

  // A click elsewhere, a scroll of the list under it or a resized window closes it (its place would be stale).
  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: Event) => {
      const target = event.target as Node | null;
      if (target && (menu.current?.contains(target) || button.current?.contains(target))) return;
      close(false);
    };
    const stale = (event: Event) => {
      if (event.target instanceof Node && menu.current?.contains(event.target)) return;
      close(false);
    };
    document.addEventListener('pointerdown', outside);
    window.addEventListener('scroll', stale, true);
    window.addEventListener('resize', stale);
    return () => {
      document.removeEventListener('pointerdown', outside);
      window.removeEventListener('scroll', stale, true);
      window.removeEventListener('resize', stale);
    };
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    event.stopPropagation();
    setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
  };
  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = entries();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const next = { ArrowDown: (at + 1) % list.length, ArrowUp: (at - 1 + list.length) % list.length, Home: 0, End: list.length - 1 }[event.key];
    if (next !== undefined) {
      event.preventDefault();
      event.stopPropagation();
      list[next]?.focus();
    } else if (event.key === 'Escape') {
      // Only the menu closes: the window's own Esc (stop the task, after asking) skips a key already used.
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="button link row-menu-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={onButtonKeyDown}
        data-testid="row-menu-button"
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul
          ref={menu}
          id={id}
          role="menu"
          aria-label={label}
          className="row-menu panel"
          style={place ? { top: place.top, right: place.right } : { visibility: 'hidden' }}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <li key={item.text} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={item.danger ? 'danger' : undefined}
                aria-label={item.label}
                title={item.title}
                onClick={() => {
                  close(true);
                  item.onSelect();
                }}
              >
                {item.text}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
