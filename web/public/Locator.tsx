// The locator: categories (the everyday ones first, the rest one tap away), the search with its
// retry rule, its options, the map, the result cards with paging, and the sponsored ads under them.
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { CATEGORY_IDS, type CategoryId } from '../../src/places/model/category-ids';
import { splitCategories } from '../lib/categories';
import { TRAVEL_MODES, type TravelMode } from '../../src/places/model/travel';
import { useT, type TextKey } from '../i18n';
import { useAds } from '../lib/content';
import { formatNumber } from '../lib/format';
import { DEFAULT_POSITION, useGeolocation, type LocationState } from '../lib/geolocation';
import { useLanguage } from '../lib/i18n';
import { FIRST_LIMIT, MORE_LIMIT, PAGE_SIZE, searchWithRetry } from '../lib/placeSearch';
import { ApiError, locatorLink, placesUrl, readLocatorLink, type Place, type PlacesQuery } from '../lib/rest';
import { useSettings } from '../lib/settings';
import { useNearViewport, usePrefersReducedMotion } from '../lib/useMediaQuery';
import { MapBoundary } from './MapBoundary';
import type { FlyTarget } from './PlacesMap';
import { cardElementId, ResultCards } from './ResultCards';
import { StaticAds } from './StaticAds';

// Leaflet is the largest library here: it loads beside the page instead of before it.
const PlacesMap = lazy(() => import('./PlacesMap'));

/** The page scrolls to the map this long after results arrive. */
export const SCROLL_DELAY_MS = 500;

/** A message is a text of ours (translated when shown) or a server's own text. */
type Message = { key: TextKey } | { text: string };

interface Outcome {
  results: Place[];
  /** a server-sent error text in a successful response */
  note: string | null;
  /** the answer held as many results as were asked for: there may be more */
  full: boolean;
  /** the site holds no places at all around the search (and the live source could not add any) */
  noCoverage: boolean;
}

const LOCATION_TEXT: Record<LocationState['status'], TextKey> = {
  locating: 'location.locating',
  located: 'location.found',
  denied: 'location.denied',
  insecure: 'location.insecure',
};

function describeError(error: unknown): Message {
  if (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429 &&
    error.serverMessage
  ) {
    if (/select at least one category/i.test(error.serverMessage)) return { key: 'locator.selectCategory' };
    if (/^city\b/i.test(error.serverMessage)) return { key: 'search.cityNotFound' };
    return { text: error.serverMessage };
  }
  return { key: 'search.unavailable' };
}

/**
 * `embedded`: the locator alone in another site's page (/embed): the address of the frame, the
 * host page's scroll position and the sponsored ads are left alone. `center`: where searches go
 * while the visitor's own position is not known (the embedding page's choice).
 */
export function Locator({
  embedded = false,
  center = null,
}: {
  embedded?: boolean;
  center?: { lat: number; lon: number } | null;
}) {
  const t = useT();
  const { lang } = useLanguage();
  const { settings, dataUpdatedAt, refetch, isFetching, isPending: settingsPending } = useSettings();
  const { data: ads } = useAds();
  const location = useGeolocation();
  const reducedMotion = usePrefersReducedMotion();
  const ids = {
    city: useId(),
    cityHint: useId(),
    name: useId(),
    nameHint: useId(),
    searchHint: useId(),
    travel: useId(),
    travelHint: useId(),
  };

  const [selected, setSelected] = useState<string[]>([]);
  const [openNow, setOpenNow] = useState(false);
  const [wheelchair, setWheelchair] = useState<'yes' | 'limited' | undefined>(undefined);
  const [travel, setTravel] = useState<TravelMode | undefined>(undefined);
  const [city, setCity] = useState('');
  const [name, setName] = useState('');
  const [loading, setLoading] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [error, setError] = useState<Message | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [visibleCount, setVisibleCount] = useState(PAGE_SIZE);
  const [flyTarget, setFlyTarget] = useState<FlyTarget | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  /** the place whose card or pin is hovered or focused */
  const [activeId, setActiveId] = useState<string | null>(null);
  const running = useRef(false);
  const lastQuery = useRef<Omit<PlacesQuery, 'lang'> | null>(null);
  const mapSection = useRef<HTMLDivElement>(null);
  // The map loads in the browser (Leaflet reads the window), into the box kept for it, once near the screen.
  const mapNear = useNearViewport();
  const observeMap = mapNear.ref;
  const mapBox = useCallback(
    (element: HTMLDivElement | null) => {
      mapSection.current = element;
      observeMap(element);
    },
    [observeMap],
  );
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const firstNewCard = useRef<HTMLElement>(null);
  const focusNewCard = useRef(false);

  const offered = settings.allowedCategories.length
    ? CATEGORY_IDS.filter((id) => settings.allowedCategories.includes(id))
    : CATEGORY_IDS;
  const { first: firstCategories, more: moreCategories } = splitCategories(offered);
  const moreId = useId();
  const selectedMore = moreCategories.filter((id) => selected.includes(id)).length;

  // Selected categories are cleared whenever settings load.
  useEffect(() => setSelected([]), [dataUpdatedAt]);

  // A link (reload, back/forward, or one shared) runs its search once the settings are in: the
  // settings' arrival clears the categories, so restoring waits for it.
  const restoredFrom = useRef<string | null>(null);
  const waitingForPosition = useRef<Omit<PlacesQuery, 'lang'> | null>(null);
  const [waitTurn, setWaitTurn] = useState(0);
  useEffect(() => {
    if (settingsPending) return;
    const restore = () => {
      if (restoredFrom.current === window.location.search) return;
      restoredFrom.current = window.location.search;
      const link = readLocatorLink(window.location.search);
      if (!link) return;
      setSelected(link.categories);
      // A link's category from behind "More categories" is shown ticked, not hidden.
      if (link.categories.some((id) => !splitCategories(offered).first.includes(id as CategoryId))) setMoreOpen(true);
      setCity(link.city ?? '');
      setName(link.q ?? '');
      setOpenNow(Boolean(link.openNow));
      setWheelchair(link.wheelchair);
      setTravel(link.travel);
      const { nearVisitor, ...rest } = link;
      const query = { ...rest, limit: FIRST_LIMIT };
      // A link without a place waits for the visitor's position (the effect below).
      if (nearVisitor) {
        waitingForPosition.current = query;
        setWaitTurn((turn) => turn + 1);
        return;
      }
      waitingForPosition.current = null;
      lastQuery.current = query;
      searchedLang.current = lang;
      void run({ ...query, lang }, false);
    };
    restore();
    window.addEventListener('popstate', restore);
    return () => window.removeEventListener('popstate', restore);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a link is read when settings arrive, not on a language switch
  }, [settingsPending, dataUpdatedAt]);

  // A "near me" link searches once the browser gives the position; refused, the page says so (as
  // the search button does) and searches nowhere else: the visitor may type a city instead.
  useEffect(() => {
    const waiting = waitingForPosition.current;
    if (!waiting || location.status === 'locating') return;
    waitingForPosition.current = null;
    if (location.status !== 'located') return setError({ key: 'location.needed' });
    const query = { ...waiting, position: location.position };
    lastQuery.current = query;
    searchedLang.current = lang;
    void run({ ...query, lang }, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a position (or a new wait) searches
  }, [location, waitTurn]);

  // The map centres on the visitor once the browser tells where they are.
  useEffect(() => {
    if (location.status === 'located' && !lastQuery.current) setFlyTarget({ ...location.position, key: Date.now() });
  }, [location]);

  /**
   * `quiet`: the same search again (a language switch, Load More), which leaves the map and the
   * page where they are; `focus`: the visitor asked for it, so focus moves to the results heading.
   */
  async function run(query: PlacesQuery, quiet: boolean, focus = false) {
    if (running.current) return; // no second search while one runs
    running.current = true;
    setLoading(true);
    setRetrying(false);
    setError(null);
    const settle = (centre: { lat: number; lon: number } | null) => {
      setVisibleCount(PAGE_SIZE);
      setActiveId(null);
      if (centre) setFlyTarget({ lat: centre.lat, lon: centre.lon, key: Date.now() });
      // After React has drawn the new heading; the map scroll follows SCROLL_DELAY_MS later.
      if (focus) window.requestAnimationFrame(() => resultsHeading.current?.focus({ preventScroll: true }));
      // Framed in another site's page, the locator does not scroll that page.
      if (!embedded)
        window.setTimeout(
          () => mapSection.current?.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' }),
          SCROLL_DELAY_MS,
        );
    };
    try {
      const response = await searchWithRetry(placesUrl(query), { onRetry: () => setRetrying(true) });
      setRetrying(false);
      const results = Array.isArray(response.results) ? response.results : [];
      const noCoverage = response.coverage === 'none';
      setOutcome({
        results,
        note: response.error?.trim() || null,
        full: results.length >= (query.limit ?? FIRST_LIMIT),
        noCoverage,
      });
      if (quiet) return;
      settle((query.city ? null : query.position) ?? response.city_center ?? results[0] ?? null);
    } catch (failure) {
      console.warn('Place search failed', failure);
      setRetrying(false);
      // The live source is out of reach where the site holds nothing itself: that is the news.
      if (failure instanceof ApiError && failure.noCoverage) {
        setOutcome({ results: [], note: null, full: false, noCoverage: true });
        if (!quiet) settle((query.city ? null : query.position) ?? null);
        return;
      }
      setError(describeError(failure));
      if (!quiet) setOutcome(null);
    } finally {
      running.current = false;
      setLoading(false);
    }
  }

  // Names and status labels come back in the request's language: ask again after a switch.
  const searchedLang = useRef(lang);
  useEffect(() => {
    if (searchedLang.current === lang) return;
    searchedLang.current = lang;
    if (lastQuery.current) void run({ ...lastQuery.current, lang }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `run` is new at each render; the language decides
  }, [lang]);

  const cityName = city.trim();
  const nameQuery = name.trim();
  // A name alone is a search too: across every category offered.
  const hasWhat = selected.length > 0 || nameQuery !== '';
  const searchFrom = location.position ?? center;
  const canSearch = !loading && hasWhat && (searchFrom !== null || cityName !== '');

  // The button is never disabled under the focus (a keyboard user would fall to <body>): it says
  // it cannot search (aria-disabled) and a press explains why, or is ignored while one runs.
  const onSearch = () => {
    if (running.current) return;
    if (!hasWhat) return setError({ key: 'locator.selectCategory' });
    if (!searchFrom && !cityName) return setError({ key: 'location.needed' });
    // A typed city wins over the position: its centre is searched around.
    const query = {
      categories: selected,
      position: cityName ? null : searchFrom,
      city: cityName || undefined,
      openNow,
      wheelchair,
      travel,
      q: nameQuery || undefined,
      limit: FIRST_LIMIT,
    };
    lastQuery.current = query;
    searchedLang.current = lang;
    // The search lives in the address: reload, back and forward, and a shared link repeat it.
    // on this language's home page ("/fr/?c=..."): the link's "/?c=..." under the page's path
    const link = window.location.pathname + locatorLink(query).slice(1);
    if (!embedded && window.location.pathname + window.location.search !== link)
      window.history.pushState(null, '', link);
    restoredFrom.current = window.location.search;
    void run({ ...query, lang }, false, true);
  };

  const [shareNote, setShareNote] = useState(false);
  const share = async () => {
    const url = window.location.href;
    try {
      // The phone's share sheet where there is one; else the link goes to the clipboard.
      if (navigator.share && window.matchMedia('(pointer: coarse)').matches) await navigator.share({ url });
      else {
        await navigator.clipboard.writeText(url);
        setShareNote(true);
      }
    } catch (failure) {
      console.warn('Share failed', failure);
    }
  };

  const toggleCategory = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((value) => value !== id)));

  // A numbered pin pressed: its card comes into view and takes the focus.
  const selectPlace = useCallback(
    (id: string) => {
      setActiveId(id);
      const card = document.getElementById(cardElementId(id));
      if (!card) return;
      card.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'nearest' });
      card.focus({ preventScroll: true });
    },
    [reducedMotion],
  );

  const categoryChip = (id: CategoryId) => (
    <li key={id}>
      <label className="category-chip">
        <input
          type="checkbox"
          name="category"
          value={id}
          checked={selected.includes(id)}
          onChange={(event) => toggleCategory(id, event.target.checked)}
        />
        <span>{t(`category.${id}`)}</span>
      </label>
    </li>
  );

  // After "Load More", focus moves to the first new card so keyboard users continue from there.
  useEffect(() => {
    if (!focusNewCard.current) return;
    focusNewCard.current = false;
    firstNewCard.current?.focus();
  }, [visibleCount]);

  const results = outcome?.results ?? [];
  const shown = results.slice(0, visibleCount);
  // The first answer holds the nearest hundred; past them, "Load More" asks for the most the API
  // gives (the same order: nearest first, then by id) and shows the next page of it.
  const canAskMore =
    Boolean(outcome?.full) && lastQuery.current !== null && (lastQuery.current.limit ?? 0) < MORE_LIMIT;
  const loadMore = async () => {
    focusNewCard.current = true;
    if (visibleCount + PAGE_SIZE > results.length && canAskMore && lastQuery.current) {
      const query = { ...lastQuery.current, limit: MORE_LIMIT };
      lastQuery.current = query;
      await run({ ...query, lang }, true);
    }
    setVisibleCount((count) => count + PAGE_SIZE);
  };
  // "100+ places found": a full answer may have more beyond it.
  const total = formatNumber(results.length, lang) + (outcome?.full ? '+' : '');
  const boxMessage: Message | null = retrying
    ? { key: 'search.retrying' }
    : (error ?? (outcome?.note ? { text: outcome.note } : null));
  const countKey =
    new Intl.PluralRules(lang).select(results.length) === 'one' ? 'results.count.one' : 'results.count.other';

  return (
    <section id="locator" className="locator container" aria-labelledby="locator-heading">
      <div className="locator__head">
        <div>
          <h2 id="locator-heading" className="section-heading">
            {t('locator.heading')}
          </h2>
          <p className="section-intro">{t('locator.intro')}</p>
        </div>
        <button type="button" className="button button--secondary" onClick={() => void refetch()} disabled={isFetching}>
          {t('locator.refreshSettings')}
        </button>
      </div>

      <div className="locator__panel">
        {/* Which categories are offered comes with the settings, and their arrival clears a choice:
            nothing can be ticked before then, so nothing ticked is lost. */}
        <fieldset className="categories" disabled={settingsPending} aria-busy={settingsPending}>
          <legend className="categories__legend">
            {t('locator.categories')}
            {selected.length ? (
              <span className="categories__count"> · {t('locator.selectedCount', { count: selected.length })}</span>
            ) : null}
          </legend>
          <ul className="categories__list">{firstCategories.map(categoryChip)}</ul>
          {moreCategories.length ? (
            <>
              <button
                type="button"
                className="categories__more"
                aria-expanded={moreOpen}
                aria-controls={moreId}
                onClick={() => setMoreOpen((open) => !open)}
              >
                {moreOpen ? t('locator.fewerCategories') : t('locator.moreCategories')}
                {!moreOpen && selectedMore ? (
                  <span> ({t('locator.selectedCount', { count: selectedMore })})</span>
                ) : null}
              </button>
              <ul id={moreId} className="categories__list categories__list--more" hidden={!moreOpen}>
                {moreCategories.map(categoryChip)}
              </ul>
            </>
          ) : null}
          {selected.length ? (
            <button type="button" className="link-button categories__clear" onClick={() => setSelected([])}>
              {t('locator.clearCategories')}
            </button>
          ) : null}
        </fieldset>

        <div className="locator__actions">
          <button
            type="button"
            className="button button--primary button--large"
            onClick={onSearch}
            aria-disabled={!canSearch}
            aria-busy={loading}
            aria-describedby={!hasWhat ? ids.searchHint : undefined}
          >
            {loading ? t('locator.searching') : t('locator.search')}
          </button>
          {!hasWhat ? (
            <p id={ids.searchHint} className="field__hint">
              {t('locator.selectCategory')}
            </p>
          ) : null}
          <p className={`location-note location-note--${location.status}`} role="status">
            {t(LOCATION_TEXT[location.status])}
          </p>
        </div>
        <div className="error-box" role="alert">
          {boxMessage ? ('key' in boxMessage ? t(boxMessage.key) : boxMessage.text) : null}
        </div>
        {/* After Search: the everyday search (categories, Search) is a few Tab stops; these refine it
            (Enter in a field searches), and on a phone the Search bar stays in view above them. */}
        <fieldset className="search-options">
          <legend className="search-options__legend">{t('locator.options')}</legend>
          <label className="checkbox-line">
            <input
              type="checkbox"
              checked={openNow}
              onChange={(event) => {
                setOpenNow(event.target.checked);
                // "open" means open on arrival: walking unless the visitor says otherwise
                if (event.target.checked && !travel) setTravel('walk');
              }}
            />
            <span>{t('locator.openNow')}</span>
          </label>
          <div className="field field--inline">
            <label htmlFor={ids.travel}>{t('locator.travel')}</label>
            <select
              id={ids.travel}
              name="by"
              value={travel ?? ''}
              aria-describedby={ids.travelHint}
              onChange={(event) => setTravel(TRAVEL_MODES.find((mode) => mode === event.target.value))}
            >
              <option value="">{t('locator.travel.none')}</option>
              {TRAVEL_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {t(`locator.travel.${mode}`)}
                </option>
              ))}
            </select>
            <p id={ids.travelHint} className="field__hint">
              {t('locator.travelHint')}
            </p>
          </div>
          <label className="checkbox-line">
            <input
              type="checkbox"
              checked={wheelchair !== undefined}
              onChange={(event) => setWheelchair(event.target.checked ? 'yes' : undefined)}
            />
            <span>{t('locator.wheelchair')}</span>
          </label>
          {wheelchair ? (
            <label className="checkbox-line checkbox-line--nested">
              <input
                type="checkbox"
                checked={wheelchair === 'limited'}
                onChange={(event) => setWheelchair(event.target.checked ? 'limited' : 'yes')}
              />
              <span>{t('locator.wheelchairLimited')}</span>
            </label>
          ) : null}
          <div className="field field--inline">
            <label htmlFor={ids.name}>{t('locator.name')}</label>
            <input
              id={ids.name}
              type="search"
              name="q"
              value={name}
              maxLength={100}
              aria-describedby={ids.nameHint}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && canSearch) onSearch();
              }}
            />
            <p id={ids.nameHint} className="field__hint">
              {t('locator.nameHint')}
            </p>
          </div>
          <div className="field field--inline">
            <label htmlFor={ids.city}>{t('locator.city')}</label>
            <input
              id={ids.city}
              type="text"
              value={city}
              autoComplete="address-level2"
              placeholder={
                settings.defaultCity ? t('locator.cityPlaceholder', { city: settings.defaultCity }) : undefined
              }
              aria-describedby={ids.cityHint}
              onChange={(event) => setCity(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && canSearch) onSearch();
              }}
            />
            <p id={ids.cityHint} className="field__hint">
              {t('locator.cityHint')}
            </p>
          </div>
        </fieldset>
      </div>

      <div className="locator__map" ref={mapBox} role="region" aria-label={t('map.label')}>
        {mapNear.near ? (
          <MapBoundary>
            <Suspense fallback={<div className="places-map" />}>
              <PlacesMap
                center={searchFrom ?? DEFAULT_POSITION}
                userPosition={location.position}
                places={results}
                shownCount={shown.length}
                flyTarget={flyTarget}
                activeId={activeId}
                onHighlight={setActiveId}
                onSelect={selectPlace}
              />
            </Suspense>
          </MapBoundary>
        ) : (
          <div className="places-map" />
        )}
      </div>

      <section className="results" aria-labelledby="results-heading">
        <div>
          {/* Focus comes here after a search: a screen reader says the count, and Tab goes on to the cards. */}
          <h3 id="results-heading" className="results__heading" ref={resultsHeading} tabIndex={-1}>
            {outcome ? t(countKey, { count: total }) : t('results.heading')}
          </h3>
          {outcome ? (
            <p className="results__share">
              <button type="button" className="button button--small button--secondary" onClick={() => void share()}>
                {t('locator.share')}
              </button>
              <span role="status">{shareNote ? ` ${t('locator.linkCopied')}` : ''}</span>
            </p>
          ) : null}
          {results.length > 0 ? (
            <p className="results__range">{t('results.showing', { shown: formatNumber(shown.length, lang), total })}</p>
          ) : null}
        </div>
        {results.length === 0 ? (
          <p
            className={outcome?.noCoverage && !loading ? 'results__empty results__empty--uncovered' : 'results__empty'}
          >
            {loading
              ? t('results.loading')
              : outcome?.noCoverage
                ? t('results.noCoverage')
                : outcome
                  ? t('results.noneHint')
                  : t('results.prompt')}
          </p>
        ) : (
          <ResultCards
            places={shown}
            firstNewIndex={visibleCount - PAGE_SIZE}
            firstNewRef={firstNewCard}
            activeId={activeId}
            onHighlight={setActiveId}
          />
        )}
        {shown.length < results.length || canAskMore ? (
          <div className="results__more">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void loadMore()}
              disabled={loading}
            >
              {t('results.loadMore')}
            </button>
          </div>
        ) : null}
      </section>

      {embedded ? null : <StaticAds ads={ads?.static ?? []} />}
    </section>
  );
}
