// If the map cannot load (its code chunk failed, or Leaflet threw), the rest of the locator
// keeps working: the cards show the results anyway.
import { Component, type ReactNode } from 'react';

export class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('The map could not be shown', error);
  }

  override render() {
    return this.state.failed ? <div className="places-map places-map--unavailable" /> : this.props.children;
  }
}
