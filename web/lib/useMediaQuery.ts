import { useEffect, useState, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches, following its changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export const usePrefersReducedMotion = (): boolean => useMediaQuery('(prefers-reduced-motion: reduce)');

const noSubscription = () => () => {};

/**
 * false while the page is rendered on the server and hydrated, true from then on: what only the
 * browser can draw (the background video) waits for it, in a box of the same size.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * `near` is false on the server, while hydrating, and until the element given to `ref` comes
 * within half a screen of the viewport; true from then on. The maps wait for it: their code
 * (about 90 KB compressed) and tiles are fetched when the visitor scrolls towards them or a
 * search scrolls to them, not while a phone draws the first screen.
 */
export function useNearViewport(): { ref: (element: Element | null) => void; near: boolean } {
  const [element, setElement] = useState<Element | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '50% 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near]);
  return { ref: setElement, near };
}
