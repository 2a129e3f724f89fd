// The visitor's position: asked for once on load. Refusal or
// failure falls back to the default position; an insecure, non-local page does not even ask,
// because browsers refuse geolocation there.
import { useEffect, useState } from 'react';

export const DEFAULT_POSITION = { lat: 38.9072, lon: -77.0369 } as const;

export interface Position {
  lat: number;
  lon: number;
}

export type LocationState =
  | { status: 'locating'; position: null }
  | { status: 'located'; position: Position }
  /** refused, failed or not supported: the default position */
  | { status: 'denied'; position: Position }
  /** http on a non-local host: the default position at once */
  | { status: 'insecure'; position: Position };

export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether the browser will let this page ask for a GPS position at all. */
export function canAskForPosition(): boolean {
  return window.isSecureContext || window.location.protocol === 'https:' || isLocalHost(window.location.hostname);
}

export function useGeolocation(): LocationState {
  // 'locating' on the server and at hydration alike; what the browser allows is read after.
  const [state, setState] = useState<LocationState>({ status: 'locating', position: null });

  useEffect(() => {
    if (!canAskForPosition()) {
      setState({ status: 'insecure', position: { ...DEFAULT_POSITION } });
      return;
    }
    let cancelled = false;
    const fallBack = () => !cancelled && setState({ status: 'denied', position: { ...DEFAULT_POSITION } });
    if (!('geolocation' in navigator)) {
      fallBack();
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (found) => {
        if (!cancelled)
          setState({ status: 'located', position: { lat: found.coords.latitude, lon: found.coords.longitude } });
      },
      fallBack,
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 300_000 },
    );
    return () => {
      cancelled = true;
    };
    // Asked once per page load.
  }, []);

  return state;
}
