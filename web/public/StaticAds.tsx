// The 'Sponsored Ads' grid of static ads (up to 4 columns), under the locator.
import { useState } from 'react';
import { useT } from '../i18n';
import { isVideoMedia, safeLink } from '../lib/media';
import type { Ad } from '../lib/rest';
import { usePrefersReducedMotion } from '../lib/useMediaQuery';

function StaticAd({ ad }: { ad: Ad }) {
  const t = useT();
  const reducedMotion = usePrefersReducedMotion();
  const [broken, setBroken] = useState(false);
  const title = ad.title.trim();
  const link = safeLink(ad.link);
  const media = broken ? (
    <div className="static-ad__placeholder" role="img" aria-label={title || t('ads.imageUnavailable')}>
      <span aria-hidden="true">{t('ads.imageUnavailable')}</span>
    </div>
  ) : isVideoMedia(ad.media) ? (
    <video
      className="static-ad__media"
      src={ad.media}
      muted
      loop
      playsInline
      autoPlay={!reducedMotion}
      aria-label={title || t('ads.untitled')}
    />
  ) : (
    <img
      className="static-ad__media"
      src={ad.media}
      alt={title || t('ads.untitled')}
      loading="lazy"
      onError={() => setBroken(true)}
    />
  );
  const body = (
    <>
      {media}
      {title ? <span className="static-ad__title">{title}</span> : null}
    </>
  );
  return link ? (
    <a className="static-ad" href={link} target="_blank" rel="noopener noreferrer">
      {body}
      <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
    </a>
  ) : (
    <div className="static-ad">{body}</div>
  );
}

export function StaticAds({ ads }: { ads: Ad[] }) {
  const t = useT();
  if (ads.length === 0) return null;
  return (
    <section className="static-ads" aria-labelledby="static-ads-heading">
      <h3 id="static-ads-heading" className="section-subheading">
        {t('ads.sponsored')}
      </h3>
      <ul className="static-ads__grid">
        {ads.map((ad) => (
          <li key={ad.id}>
            <StaticAd ad={ad} />
          </li>
        ))}
      </ul>
    </section>
  );
}
