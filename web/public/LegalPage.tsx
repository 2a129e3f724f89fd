// /privacy and /terms: the text the administrator wrote in the settings for the visitor's
// language, else the site's default text in that language.
import { Fragment } from 'react';
import { useT } from '../i18n';
import { useLanguage } from '../lib/i18n';
import { useSettings } from '../lib/settings';
import { textBlocks } from '../lib/textBlocks';

export type LegalKind = 'privacy' | 'terms';

export function LegalPage({ kind }: { kind: LegalKind }) {
  const t = useT();
  const { lang } = useLanguage();
  const { settings, isPending } = useSettings();
  const title = t(kind === 'privacy' ? 'footer.privacy' : 'footer.terms');
  const own = (kind === 'privacy' ? settings.privacyPolicy : settings.termsOfService)[lang];
  // While the settings load, nothing rather than the default text that may be replaced.
  const text = own || (isPending ? '' : t(kind === 'privacy' ? 'legal.privacyDefault' : 'legal.termsDefault'));
  return (
    <article className="page legal-page" aria-labelledby="legal-title">
      <div className="container legal-page__body">
        <h1 id="legal-title" className="page-title">
          {title}
        </h1>
        {textBlocks(text).map((block, index) =>
          block.kind === 'heading' ? (
            <h2 key={index}>{block.text}</h2>
          ) : block.kind === 'list' ? (
            <ul key={index}>
              {block.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          ) : (
            <p key={index}>
              {block.lines.map((line, i) => (
                <Fragment key={i}>
                  {i > 0 ? <br /> : null}
                  {line}
                </Fragment>
              ))}
            </p>
          ),
        )}
      </div>
    </article>
  );
}

export const PrivacyPage = () => <LegalPage kind="privacy" />;
export const TermsPage = () => <LegalPage kind="terms" />;
