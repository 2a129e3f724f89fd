// /embed: the locator alone, framed by another site's page (/embed.js puts it there). The query
// names the site key (every read of the page counts against it), the language, and the search
// (c, lat, lon, city, q, as a link to the locator does); `parent` is the framing page's origin,
// checked by the server against the key's origins, the one place the frame's height is posted.
import './styles.css';
import { StrictMode, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { isLang } from '../src/i18n';
import { createQueryClient } from './app';
import { useT } from './i18n';
import { themeVariables } from './lib/color';
import { LanguageProvider } from './lib/i18n';
import { setSiteKeyForReads } from './lib/rest';
import { SettingsProvider, useSettings } from './lib/settings';
import { useSiteTitle } from './public/Home';
import { Locator } from './public/Locator';
import { EMBED_HEIGHT_MESSAGE } from './lib/embedMessage';

const params = new URLSearchParams(window.location.search);
setSiteKeyForReads(params.get('key'));
const lang = params.get('lang')?.toLowerCase();
const parentOrigin = params.get('parent');
const lat = Number(params.get('lat'));
const lon = Number(params.get('lon'));
const center =
  params.has('lat') && params.has('lon') && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;

/** Tells the framing page the height of the content, whenever it changes. */
function useReportedHeight(element: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const target = element.current;
    if (!target || window.parent === window || !parentOrigin) return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(target.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      // To the framing page's origin only: never '*'.
      window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, parentOrigin);
    };
    const observer = new ResizeObserver(post);
    observer.observe(target);
    post();
    return () => observer.disconnect();
  }, [element]);
}

function Embed() {
  const t = useT();
  const { settings } = useSettings();
  const title = useSiteTitle();
  const root = useRef<HTMLDivElement>(null);
  useReportedHeight(root);
  useEffect(() => {
    document.title = title;
  }, [title]);
  const theme = useMemo(
    () => themeVariables(settings.primaryColor, settings.secondaryColor, settings.fontFamily) as CSSProperties,
    [settings.primaryColor, settings.secondaryColor, settings.fontFamily],
  );
  return (
    <div className="embed" style={theme} ref={root}>
      <main>
        <Locator embedded center={center} />
      </main>
      <p className="embed__credit">
        <a href="/" target="_blank" rel="noopener">
          {t('embed.openSite', { site: title })}
        </a>
      </p>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <SettingsProvider>
        <LanguageProvider initial={isLang(lang) ? lang : undefined}>
          <Embed />
        </LanguageProvider>
      </SettingsProvider>
    </QueryClientProvider>
  </StrictMode>,
);
