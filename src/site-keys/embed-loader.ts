// /embed.js: runs in another site's page. It puts the locator (/embed) where the script tag
// stands, as a frame as wide as its container and as tall as the locator's content, resized when
// the frame posts a new height. It is served as this function's own source (embed.ts), so it may
// use nothing from outside itself. A message is taken only from this site's origin AND from the
// frame it inserted, of the one expected shape, with the height clamped.
export function embedLoader(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script || !script.src) return;
  const site = new URL(script.src).origin;
  const data = script.dataset;
  const query = new URLSearchParams();
  if (data.key) query.set('key', data.key);
  if (data.categories) query.set('c', data.categories);
  const lang = (data.lang || document.documentElement.lang || '').slice(0, 2).toLowerCase();
  if (lang) query.set('lang', lang);
  for (const name of ['lat', 'lon', 'city', 'q']) {
    const value = data[name];
    if (value) query.set(name, value);
  }
  // The frame posts its height to this origin only; the server checks it is one of the key's.
  query.set('parent', window.location.origin);

  const MIN_HEIGHT = 320;
  const MAX_HEIGHT = 6000;
  const frame = document.createElement('iframe');
  frame.src = `${site}/embed?${query.toString()}`;
  frame.title = data.title || 'Nearby places';
  frame.loading = 'lazy';
  // Where the visitor allows it, the locator searches around them.
  frame.allow = 'geolocation';
  frame.referrerPolicy = 'strict-origin-when-cross-origin';
  frame.style.cssText = `display:block;width:100%;max-width:100%;border:0;height:${MIN_HEIGHT * 2}px`;
  script.insertAdjacentElement('afterend', frame);

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== site || event.source !== frame.contentWindow) return;
    const message = event.data as { type?: unknown; height?: unknown } | null;
    if (!message || typeof message !== 'object' || message.type !== 'nearby-place-finder:height') return;
    const height = message.height;
    if (typeof height !== 'number' || !Number.isFinite(height)) return;
    frame.style.height = `${Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)))}px`;
  });
}
