import { useSyncExternalStore } from 'react';

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
 * browser can draw (the maps) waits for it, in a box of the same size.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
