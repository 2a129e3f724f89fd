// The ad carousel: a new slide every 4 s with a 1 s fade, swipe or drag of
// more than 50 px to change slide, title overlay, a placeholder for a broken image, and a click
// that follows the ad's link in a new tab. It stops while pointed at or focused, on the pause
// button, and when the visitor prefers reduced motion.
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useT } from '../i18n';
import { safeLink } from '../lib/media';
import type { Ad } from '../lib/rest';
import { usePrefersReducedMotion } from '../lib/useMediaQuery';

export const CAROUSEL_INTERVAL_MS = 4000;
export const SWIPE_THRESHOLD_PX = 50;
/** A press that moved further than this was a drag, not a click on the ad. */
const CLICK_TOLERANCE_PX = 10;

function Slide({ ad, active, position, total }: { ad: Ad; active: boolean; position: number; total: number }) {
  const t = useT();
  const [broken, setBroken] = useState(false);
  // An image that failed before hydration fired its error event before React listened for it.
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    if (image.current?.complete && image.current.naturalWidth === 0) setBroken(true);
  }, []);
  const link = safeLink(ad.link);
  const title = ad.title.trim();
  const picture = broken ? (
    <div className="carousel__placeholder" role="img" aria-label={title || t('ads.imageUnavailable')}>
      <span aria-hidden="true">{t('ads.imageUnavailable')}</span>
    </div>
  ) : (
    <img
      ref={image}
      className="carousel__image"
      src={ad.media}
      alt={title || t('ads.untitled')}
      draggable={false}
      onError={() => setBroken(true)}
    />
  );
  const caption = title ? <span className="carousel__title">{title}</span> : null;
  return (
    <div
      className={`carousel__slide${active ? ' carousel__slide--active' : ''}`}
      role="group"
      aria-roledescription="slide"
      aria-label={t('ads.slide', { current: position, total })}
      aria-hidden={!active}
      inert={!active}
    >
      {link ? (
        <a className="carousel__link" href={link} target="_blank" rel="noopener noreferrer" draggable={false}>
          {picture}
          {caption}
          <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
        </a>
      ) : (
        <div className="carousel__link">
          {picture}
          {caption}
        </div>
      )}
    </div>
  );
}

export function AdCarousel({ slides }: { slides: Ad[] }) {
  const t = useT();
  const reducedMotion = usePrefersReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const drag = useRef<{ x: number; id: number } | null>(null);
  const swallowClick = useRef(false);
  const count = slides.length;
  const current = count ? index % count : 0;
  const rotating = count > 1 && !paused && !hovered && !focused && !reducedMotion;

  const go = useCallback((step: number) => setIndex((value) => (((value + step) % count) + count) % count), [count]);

  // A timeout per slide: a manual change restarts the 4 s.
  useEffect(() => {
    if (!rotating) return;
    const timer = window.setTimeout(() => go(1), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [rotating, current, go]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    drag.current = { x: event.clientX, id: event.pointerId };
    swallowClick.current = false;
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    drag.current = null;
    if (!start || start.id !== event.pointerId) return;
    const moved = event.clientX - start.x;
    // A drag that ends on the link is not a click on the ad, even a short one.
    if (Math.abs(moved) > CLICK_TOLERANCE_PX) swallowClick.current = true;
    if (Math.abs(moved) > SWIPE_THRESHOLD_PX) go(moved < 0 ? 1 : -1);
  };

  if (count === 0) return null;
  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={t('ads.carouselLabel')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div
        className="carousel__viewport"
        aria-live={rotating ? 'off' : 'polite'}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onClickCapture={(event) => {
          if (!swallowClick.current) return;
          swallowClick.current = false;
          event.preventDefault();
          event.stopPropagation();
        }}
        data-index={current}
      >
        {slides.map((ad, i) => (
          <Slide key={ad.id} ad={ad} active={i === current} position={i + 1} total={count} />
        ))}
      </div>
      {count > 1 ? (
        <div className="carousel__controls">
          <button type="button" className="carousel__button" onClick={() => go(-1)} aria-label={t('ads.previous')}>
            <span aria-hidden="true">‹</span>
          </button>
          <ul className="carousel__dots">
            {slides.map((ad, i) => (
              <li key={ad.id}>
                <button
                  type="button"
                  className="carousel__dot"
                  aria-label={t('ads.goTo', { number: i + 1 })}
                  aria-current={i === current ? 'true' : undefined}
                  onClick={() => setIndex(i)}
                />
              </li>
            ))}
          </ul>
          <button type="button" className="carousel__button" onClick={() => go(1)} aria-label={t('ads.next')}>
            <span aria-hidden="true">›</span>
          </button>
          {reducedMotion ? null : (
            <button
              type="button"
              className="carousel__button"
              onClick={() => setPaused((value) => !value)}
              aria-label={paused ? t('ads.play') : t('ads.pause')}
            >
              <span aria-hidden="true">{paused ? '▶' : '❚❚'}</span>
            </button>
          )}
        </div>
      ) : null}
    </section>
  );
}
