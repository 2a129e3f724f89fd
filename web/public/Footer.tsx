// Site footer: what the site is, the social buttons the administrator linked (none when none
// is), quick links, the Privacy Policy and Terms pages, the copyright line and the OpenStreetMap
// attribution.
import { Link } from 'wouter';
import { useT } from '../i18n';
import { formatYear } from '../lib/format';
import { useLanguage } from '../lib/i18n';
import { SOCIAL_NETWORK_NAMES, type SocialNetwork } from '../../src/site-settings';
import { useSettings } from '../lib/settings';
import { PUBLIC_LINKS } from './Header';

// Simple monochrome glyphs drawn inline: no icon font or image is fetched.
const ICONS: Record<SocialNetwork, string> = {
  facebook: 'M14 8h3V4h-3c-2.8 0-4 1.7-4 4.3V10H7v4h3v8h4v-8h3l1-4h-4V8.6c0-.4.3-.6.6-.6z',
  x: 'M4 4h4.6l4 5.6L17.4 4H20l-6.2 7.1L20.4 20h-4.6l-4.3-6-5.2 6H3.7l6.6-7.5z',
  instagram:
    'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
  linkedin:
    'M4 9h4v12H4zM6 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm4 6h3.8v1.7c.6-1 1.9-2 3.9-2 4 0 4.3 2.6 4.3 6V21h-4v-5.6c0-1.4 0-3.1-2-3.1s-2.2 1.4-2.2 3V21H10z',
};

export function Footer({ siteTitle }: { siteTitle: string }) {
  const t = useT();
  const { lang } = useLanguage();
  const { settings } = useSettings();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="site-footer__heading">
            {siteTitle}
          </h2>
          <p>{t('footer.description')}</p>
          {settings.socialLinks.length ? (
            <>
              <p className="site-footer__follow">{t('footer.follow')}</p>
              <ul className="social-buttons">
                {settings.socialLinks.map(({ network, url }) => (
                  <li key={network}>
                    <a className="social-button" href={url} target="_blank" rel="noopener noreferrer">
                      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                        <path d={ICONS[network]} fill="currentColor" />
                      </svg>
                      <span className="visually-hidden">
                        {t('footer.followOn', { network: SOCIAL_NETWORK_NAMES[network] })} {t('app.opensInNewTab')}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="site-footer__heading">
            {t('footer.quickLinks')}
          </h2>
          <ul className="site-footer__links">
            {PUBLIC_LINKS.map((link) => (
              <li key={link.href}>
                <Link href={link.href}>{t(link.key)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="site-footer__heading">
            {t('footer.legal')}
          </h2>
          <ul className="site-footer__links">
            <li>
              <Link href="/privacy">{t('footer.privacy')}</Link>
            </li>
            <li>
              <Link href="/terms">{t('footer.terms')}</Link>
            </li>
          </ul>
        </section>
      </div>
      <div className="container site-footer__bottom">
        <p>{t('footer.copyright', { year: formatYear(new Date(), lang), site: siteTitle })}</p>
        <p className="site-footer__attribution">
          <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">
            {t('footer.mapData')}
            <span className="visually-hidden"> {t('app.opensInNewTab')}</span>
          </a>
        </p>
      </div>
    </footer>
  );
}
