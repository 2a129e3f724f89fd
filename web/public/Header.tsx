// Site header: brand, the three public links, the language menu; on small screens the links
// and the language menu fold behind a Menu button.
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../i18n';
import { LANGUAGE_NAMES, useLanguage, type Lang } from '../lib/i18n';

export interface HeaderProps {
  siteTitle: string;
  logoUrl: string;
  languages: Lang[];
  // Passed to every header; the public header itself does not use them.
  isLoggedIn: boolean;
  isAdmin: boolean;
  onLogout(): void;
}

/** The public pages, in the header and the footer's quick links. */
export const PUBLIC_LINKS = [
  { href: '/', key: 'nav.home' },
  { href: '/contact', key: 'nav.contact' },
  { href: '/plans', key: 'nav.plans' },
] as const;

export function Header({ siteTitle, logoUrl, languages }: HeaderProps) {
  const t = useT();
  const { lang, setLang } = useLanguage();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const languageId = useId();

  // A followed link closes the menu.
  useEffect(() => setMenuOpen(false), [location]);

  // The header sticks to the top: what the page scrolls into view must land below it, whatever its
  // height (a long title wraps, the menu opens). styles.css reads --header-height.
  const header = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = header.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--header-height', `${Math.ceil(element.getBoundingClientRect().height)}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--header-height');
    };
  }, []);

  return (
    <header className="site-header" ref={header}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <div className="container site-header__bar">
        <Link href="/" className="brand" aria-label={t('nav.homeLink', { site: siteTitle })}>
          {logoUrl ? (
            <img className="brand__logo" src={logoUrl} alt="" width={36} height={36} />
          ) : (
            <span className="brand__mark" aria-hidden="true" />
          )}
          <span className="brand__name">{siteTitle}</span>
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-toggle__icon" aria-hidden="true" />
          {t('nav.menu')}
        </button>
        <div id={menuId} className={`site-nav${menuOpen ? ' site-nav--open' : ''}`}>
          <nav aria-label={t('nav.label')}>
            <ul className="site-nav__links">
              {PUBLIC_LINKS.map((link) => (
                <li key={link.href}>
                  <Link
                    href={link.href}
                    className="site-nav__link"
                    aria-current={location === link.href ? 'page' : undefined}
                  >
                    {t(link.key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="language-menu">
            <label htmlFor={languageId}>{t('nav.language')}</label>
            <select id={languageId} value={lang} onChange={(event) => setLang(event.target.value as Lang)}>
              {languages.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
    </header>
  );
}
