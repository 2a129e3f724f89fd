// The home page's banner. Presentational on purpose: the admin settings page reuses it as a
// live preview, so it takes the theme as props instead of reading the settings itself.
import type { CSSProperties, ReactNode } from 'react';
import { readableShade, safeFontFamily, DEFAULT_PRIMARY, DEFAULT_SECONDARY } from '../lib/color';

export interface HeroProps {
  title: string;
  subtitle: string;
  primaryColor: string;
  secondaryColor: string;
  fontFamily: string;
  logoUrl?: string;
  /** actions under the subtitle (the home page's call to action); none in the admin preview */
  children?: ReactNode;
}

export function Hero({ title, subtitle, primaryColor, secondaryColor, fontFamily, logoUrl, children }: HeroProps) {
  // Shades dark enough for the white text, whatever colours the admin picked.
  const from = readableShade(primaryColor, DEFAULT_PRIMARY);
  const to = readableShade(secondaryColor, DEFAULT_SECONDARY);
  const style: CSSProperties = {
    backgroundColor: from,
    backgroundImage: `linear-gradient(135deg, ${from} 0%, ${from} 45%, ${to} 100%)`,
    fontFamily: `${safeFontFamily(fontFamily)}, system-ui, sans-serif`,
  };
  return (
    <section className="hero" style={style} aria-labelledby="hero-title">
      <div className="hero__inner container">
        {logoUrl ? <img className="hero__logo" src={logoUrl} alt="" width={72} height={72} /> : null}
        <h1 id="hero-title" className="hero__title">
          {title}
        </h1>
        <p className="hero__subtitle">{subtitle}</p>
        {children}
      </div>
    </section>
  );
}

export default Hero;
