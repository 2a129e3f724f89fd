// The home page: hero, ads, locator, plans, the towns' groups of places.
import { useT } from '../i18n';
import { DEFAULT_SITE_TITLE, useSettings } from '../lib/settings';
import { AdSection } from './AdSection';
import { BrowseSection } from './BrowseSection';
import { Hero } from './Hero';
import { Locator } from './Locator';
import { PlansSection } from './PlansSection';

/** The settings' title, or the default one in the visitor's language. */
export function useSiteTitle(): string {
  const t = useT();
  const { settings } = useSettings();
  return settings.siteTitle === DEFAULT_SITE_TITLE ? t('hero.defaultTitle') : settings.siteTitle;
}

export function Home() {
  const t = useT();
  const { settings } = useSettings();
  const title = useSiteTitle();
  return (
    <>
      <Hero
        title={title}
        subtitle={t('hero.subtitle')}
        primaryColor={settings.primaryColor}
        secondaryColor={settings.secondaryColor}
        fontFamily={settings.fontFamily}
        logoUrl={settings.logoUrl || undefined}
      >
        <a className="button button--on-dark" href="#locator">
          {t('hero.cta')}
        </a>
      </Hero>
      <AdSection />
      <Locator />
      <PlansSection />
      <BrowseSection />
    </>
  );
}
