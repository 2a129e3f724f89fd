// A place's own page (/place/<type>/<id>): what it is, where, how to reach and call it, its status
// now and its whole week of hours in its own time zone (today marked, the next change), a small
// map, directions, and the OpenStreetMap edit link. An unknown place is a 404 page with a way back.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { useT, type Translate } from '../i18n';
import { formatTime, weekdayName } from '../lib/format';
import { useLanguage, type Lang } from '../lib/i18n';
import { safeLink } from '../lib/media';
import { useNearViewport } from '../lib/useMediaQuery';
import { ApiError, getJson, placeUrl, type PlaceDetail } from '../lib/rest';
import { useSiteTitle } from './Home';
import { MapBoundary } from './MapBoundary';
import { addressText, categoryOf, mapsSearchUrl, streetViewUrl, telLink, WheelchairAccess } from './ResultCards';

const PlaceMap = lazy(() => import('./PlaceMap'));

export const directionsOsmUrl = (p: { lat: number; lon: number }) =>
  `https://www.openstreetmap.org/directions?to=${p.lat}%2C${p.lon}`;
export const directionsGoogleUrl = (p: { lat: number; lon: number }) =>
  `https://www.google.com/maps/dir/?api=1&destination=${p.lat},${p.lon}`;
/** The element's edit link on openstreetmap.org ("node/123" -> ?node=123). */
export const osmEditUrl = (id: string) => {
  const [type, number] = id.split('/');
  return `https://www.openstreetmap.org/edit?${type}=${number}`;
};

const time = (hhmm: string, lang: Lang) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h === 24 ? formatTime(0, 0, lang) : formatTime(h, m, lang);
};

/** "Opens at 9:00", "Opens Monday at 9:00", "Closes in 40 minutes", "Closes at 22:00". */
export function nextChangeText(hours: NonNullable<PlaceDetail['hours']>, t: Translate, lang: Lang): string | null {
  const change = hours.next_change;
  if (!change) return null;
  const at = time(change.local_time, lang);
  const today = hours.days.find((day) => day.today)?.weekday;
  if (!change.opens) {
    const minutes = Math.max(1, change.in_minutes);
    return minutes <= 60 ? t('place.closesIn', { minutes }) : t('place.closesAt', { time: at });
  }
  return change.weekday === today
    ? t('place.opensAt', { time: at })
    : t('place.opensOn', { day: weekdayName(change.weekday, lang), time: at });
}

/** The place page's query: the place, or null when there is no such place. */
export const placeQueryKey = (id: string, lang: Lang) => ['place', id, lang] as const;

async function fetchPlace(id: string, lang: Lang, signal: AbortSignal): Promise<PlaceDetail | null> {
  try {
    return await getJson<PlaceDetail>(placeUrl(id, lang), signal);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export function setMeta(name: string, content: string) {
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.appendChild(meta);
  }
  meta.content = content;
}

function HoursTable({ place }: { place: PlaceDetail }) {
  const t = useT();
  const { lang } = useLanguage();
  if (!place.hours) return <p className="place-page__hours-unknown">{t('place.hoursUnknown')}</p>;
  return (
    <table className="hours-table">
      <caption className="visually-hidden">{t('place.hours')}</caption>
      <tbody>
        {place.hours.days.map((day) => (
          <tr
            key={day.date}
            className={day.today ? 'hours-table__today' : undefined}
            aria-current={day.today ? 'date' : undefined}
          >
            <th scope="row">
              {weekdayName(day.weekday, lang)}
              {day.today ? <span className="hours-table__badge"> {t('place.today')}</span> : null}
            </th>
            <td>
              {day.intervals.length === 0
                ? t('place.closedAllDay')
                : day.intervals.length === 1 && day.intervals[0].from === '00:00' && day.intervals[0].to === '24:00'
                  ? t('place.open24')
                  : day.intervals.map((i) => `${time(i.from, lang)}–${time(i.to, lang)}`).join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PlacePage({ params }: { params: { type: string; id: string } }) {
  const t = useT();
  const { lang } = useLanguage();
  const siteTitle = useSiteTitle();
  const id = `${params.type}/${params.id}`;
  const map = useNearViewport();
  const query = useQuery({
    queryKey: placeQueryKey(id, lang),
    queryFn: ({ signal }) => fetchPlace(id, lang, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const place = query.data;
  // null: no such place (the server renders that page with a 404)
  const notFound = place === null;

  // The page opens on its heading: a screen reader says the place's name, Tab goes on from there.
  const heading = useRef<HTMLHeadingElement>(null);
  const shownId = place?.id ?? (notFound || query.isError ? `missing:${id}` : null);
  useEffect(() => {
    if (shownId) heading.current?.focus();
  }, [shownId]);

  useEffect(() => {
    if (place) {
      // as the server's head says it (src/pages/pages.ts), for a page reached in the browser
      const category = categoryOf(place, lang) ?? '';
      document.title = `${place.name} · ${siteTitle}`;
      setMeta(
        'description',
        place.address
          ? t('place.description', { category, address: place.address })
          : t('place.descriptionNoAddress', { category }),
      );
    } else if (notFound) {
      document.title = `${t('place.notFound')} · ${siteTitle}`;
    }
  }, [place, notFound, siteTitle, t, lang]);

  if (query.isPending) {
    return (
      <div className="page-loading" role="status">
        {t('app.loading')}
      </div>
    );
  }
  if (!place) {
    return (
      <section className="place-page place-page--missing" aria-labelledby="place-title">
        <h1 id="place-title" ref={heading} tabIndex={-1}>
          {notFound ? t('place.notFound') : t('place.loadError')}
        </h1>
        <p>{notFound ? t('place.notFoundText') : t('place.loadErrorText')}</p>
        <Link href="/" className="button button--primary">
          {t('place.back')}
        </Link>
      </section>
    );
  }

  const tel = telLink(place.phone_number);
  const website = safeLink(place.website);
  const newTab = <span className="visually-hidden"> {t('app.opensInNewTab')}</span>;
  const next = place.hours ? nextChangeText(place.hours, t, lang) : null;
  const external = (href: string, text: string, className = 'button button--small button--secondary') => (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {text}
      {newTab}
    </a>
  );

  return (
    <article className="place-page" aria-labelledby="place-title">
      <p className="place-page__back">
        <Link href="/">← {t('place.back')}</Link>
      </p>
      <header className="place-page__header">
        <h1 id="place-title" ref={heading} tabIndex={-1}>
          {place.name}
        </h1>
        <p className="place-page__category">{categoryOf(place, lang)}</p>
        {place.unnamed ? <p className="place-page__unnamed">{t('card.unnamed')}</p> : null}
        <p className="place-page__status">
          <span className={`status-badge status-badge--${place.status}`}>{place.status_label}</span>
          {next ? <span className="place-page__next"> {next}</span> : null}
        </p>
      </header>

      <div className="place-page__body">
        <dl className="place-page__facts">
          <dt>{t('place.address')}</dt>
          <dd>
            {addressText(place, t)}
            {place.address_source === 'nearby' ? (
              <span className="field__hint place-page__approximate">{t('card.approximate')}</span>
            ) : null}
          </dd>
          <dt>{t('place.phone')}</dt>
          <dd>{tel ? <a href={tel}>{place.phone_number}</a> : t('card.noPhone')}</dd>
          {website ? (
            <>
              <dt>{t('card.website')}</dt>
              <dd>
                {external(website, website.replace(/^https?:\/\//, '').replace(/\/$/, ''), 'place-page__website')}
              </dd>
            </>
          ) : null}
          <dt>{t('place.access')}</dt>
          <dd>
            <WheelchairAccess value={place.wheelchair} className="place-page__access" />
          </dd>
        </dl>

        <section className="place-page__hours" aria-labelledby="hours-title">
          <h2 id="hours-title">{t('place.hours')}</h2>
          <HoursTable place={place} />
          {place.hours ? <p className="field__hint">{t('place.localTime', { zone: place.hours.timezone })}</p> : null}
        </section>

        <div className="place-page__map" ref={map.ref} role="region" aria-label={t('place.map', { name: place.name })}>
          {map.near ? (
            <MapBoundary>
              <Suspense fallback={<div className="place-map" />}>
                <PlaceMap lat={place.lat} lon={place.lon} name={place.name} status={place.status} />
              </Suspense>
            </MapBoundary>
          ) : (
            <div className="place-map" />
          )}
        </div>

        <nav className="place-page__links" aria-label={t('place.links')}>
          {external(directionsOsmUrl(place), t('place.directionsOsm'))}
          {external(directionsGoogleUrl(place), t('place.directionsGoogle'))}
          {external(mapsSearchUrl(place), t('card.viewOnMap'))}
          {external(streetViewUrl(place), t('card.streetView'))}
          {tel ? (
            <a className="button button--small" href={tel} aria-label={t('card.callPlace', { name: place.name })}>
              {t('card.call')}
            </a>
          ) : null}
          {place.source !== 'own' && external(osmEditUrl(place.id), t('place.improve'), 'place-page__edit')}
        </nav>
      </div>
    </article>
  );
}
