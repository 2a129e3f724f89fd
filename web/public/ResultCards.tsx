// The result cards: a number (the same as the map's pin), name, address, distance, a coloured
// status badge and three actions. A card and its pin light up together.
import { forwardRef, type FocusEvent } from 'react';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { formatDistance } from '../lib/format';
import { useLanguage } from '../lib/i18n';
import { useDistanceUnit } from '../lib/settings';
import { safeLink } from '../lib/media';
import type { Place } from '../lib/rest';
import { isCategoryId } from '../../src/places/model/category-ids';
import { CATEGORY_NAMES } from '../../src/places/model/category-names';
import type { Lang } from '../../src/i18n';

/** One place's kind, in the singular ("Restaurant"). */
export const categoryOf = (place: Pick<Place, 'category'>, lang: Lang) =>
  isCategoryId(place.category) ? CATEGORY_NAMES[place.category][lang] : null;

/** The address as a visitor reads it: one from the street nearby is marked approximate. */
export function addressText(place: Pick<Place, 'address' | 'address_source'>, t: ReturnType<typeof useT>): string {
  if (!place.address) return t('card.noAddress');
  return place.address_source === 'nearby' ? t('card.near', { address: place.address }) : place.address;
}

/** A shape beside the words, so that the access never rests on colour alone. */
const ACCESS_SYMBOL = { yes: '✓', limited: '◐', no: '✕', unknown: '?' } as const;

/** Wheelchair access in words and a symbol: yes, limited, no or unknown. */
export function WheelchairAccess({ value, className }: { value: Place['wheelchair']; className: string }) {
  const t = useT();
  const key = value ?? 'unknown';
  return (
    <p className={`${className} access access--${key}`}>
      <span className="access__symbol" aria-hidden="true">
        ♿{ACCESS_SYMBOL[key]}
      </span>{' '}
      {t(`card.wheelchair.${key}`)}
    </p>
  );
}

/** A maps search at the place's coordinates (opens the maps app on phones). */
export const mapsSearchUrl = (place: Pick<Place, 'lat' | 'lon'>) =>
  `https://www.google.com/maps/search/?api=1&query=${place.lat},${place.lon}`;

/** Street-level imagery around the place, zoom 19. */
export const streetViewUrl = (place: Pick<Place, 'lat' | 'lon'>) =>
  `https://www.mapillary.com/app/?lat=${place.lat}&lng=${place.lon}&z=19`;

/** A dialable tel: link: digits, a leading + and extension marks only. */
export function telLink(phone: string | null | undefined): string | null {
  const first = phone?.split(/[;,]/)[0] ?? '';
  const dialable = first.replace(/[^\d+*#]/g, '');
  return dialable.replace(/\D/g, '').length >= 3 ? `tel:${dialable}` : null;
}

interface CardProps {
  place: Place;
  /** the number of its pin on the map */
  number: number;
  active: boolean;
  onHighlight(id: string | null): void;
}

/** The element of a place's card, for the map's pins to lead to. */
export const cardElementId = (placeId: string) => `card-${placeId}`;

const ResultCard = forwardRef<HTMLElement, CardProps>(function ResultCard({ place, number, active, onHighlight }, ref) {
  const t = useT();
  const { lang } = useLanguage();
  const unit = useDistanceUnit();
  const tel = telLink(place.phone_number);
  const website = safeLink(place.website);
  const newTab = <span className="visually-hidden"> {t('app.opensInNewTab')}</span>;
  const category = categoryOf(place, lang);
  // Focus moving between the card's own buttons keeps the pin lit.
  const blur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onHighlight(null);
  };
  return (
    <article
      id={cardElementId(place.id)}
      className={active ? 'result-card result-card--active' : 'result-card'}
      ref={ref}
      tabIndex={-1}
      aria-labelledby={`place-${place.id}`}
      onMouseEnter={() => onHighlight(place.id)}
      onMouseLeave={() => onHighlight(null)}
      onFocus={() => onHighlight(place.id)}
      onBlur={blur}
    >
      <div className="result-card__top">
        <span className="result-card__number" aria-hidden="true">
          {number}
        </span>
        <h3 id={`place-${place.id}`} className="result-card__name">
          <Link href={`/place/${place.id}`}>{place.name}</Link>
        </h3>
        <span className={`status-badge status-badge--${place.status}`}>
          {place.status_label || t(`status.${place.status}`)}
        </span>
      </div>
      {place.unnamed ? <p className="result-card__unnamed">{t('card.unnamed')}</p> : null}
      {place.status_on_arrival_label ? (
        <p className={`result-card__arrival result-card__arrival--${place.status_on_arrival}`}>
          {place.status_on_arrival_label}
        </p>
      ) : null}
      <p className={place.address ? 'result-card__address' : 'result-card__address result-card__address--missing'}>
        {addressText(place, t)}
      </p>
      <p className="result-card__meta">
        <span className="result-card__distance">
          {t('card.distance', { distance: formatDistance(place.distance, lang, unit) })}
        </span>
        {category ? <span className="result-card__category">{category}</span> : null}
      </p>
      <WheelchairAccess value={place.wheelchair} className="result-card__access" />
      <div className="result-card__actions">
        <a
          className="button button--small button--secondary"
          href={mapsSearchUrl(place)}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('card.viewOnMap')}
          {newTab}
        </a>
        <a
          className="button button--small button--secondary"
          href={streetViewUrl(place)}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('card.streetView')}
          {newTab}
        </a>
        {tel ? (
          <a className="button button--small" href={tel} aria-label={t('card.callPlace', { name: place.name })}>
            {t('card.call')}
          </a>
        ) : (
          <button type="button" className="button button--small" disabled title={t('card.noPhone')}>
            {t('card.call')}
          </button>
        )}
      </div>
      {website ? (
        <a className="result-card__website" href={website} target="_blank" rel="noopener noreferrer">
          {t('card.website')}
          {newTab}
        </a>
      ) : null}
    </article>
  );
});

interface CardsProps {
  places: Place[];
  firstNewIndex: number;
  firstNewRef: React.Ref<HTMLElement>;
  activeId: string | null;
  onHighlight(id: string | null): void;
}

export function ResultCards({ places, firstNewIndex, firstNewRef, activeId, onHighlight }: CardsProps) {
  return (
    <ul className="result-grid">
      {places.map((place, index) => (
        <li key={place.id}>
          <ResultCard
            place={place}
            number={index + 1}
            active={place.id === activeId}
            onHighlight={onHighlight}
            ref={index === firstNewIndex ? firstNewRef : undefined}
          />
        </li>
      ))}
    </ul>
  );
}
