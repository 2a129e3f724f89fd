// One plan as a card: name, price for the chosen billing period, description (text, or features
// and languages lists), and the select-plan link to the plan's external page.
import { useT } from '../i18n';
import { formatPrice } from '../lib/format';
import { useLanguage } from '../lib/i18n';
import { safeLink } from '../lib/media';
import { annualPrice, annualSaving, isHighlighted, parseDescription, type BillingPeriod } from '../lib/plans';
import type { Plan } from '../lib/rest';

interface PlanCardProps {
  plan: Plan;
  period: BillingPeriod;
  mostPopular: boolean;
  /** the plan name's heading level, under the page's own headings */
  level: 2 | 3;
}

export function PlanCard({ plan, period, mostPopular, level }: PlanCardProps) {
  const Name = level === 2 ? 'h2' : 'h3';
  const ListTitle = level === 2 ? 'h3' : 'h4';
  const t = useT();
  const { lang } = useLanguage();
  const details = parseDescription(plan.description);
  const link = safeLink(plan.link);
  const highlighted = isHighlighted(plan);
  const headingId = `plan-${plan.id}-name`;
  const annual = period === 'annual';
  const price = formatPrice(annual ? annualPrice(plan.price) : plan.price, lang);

  return (
    <article
      className={`plan-card${highlighted ? ' plan-card--highlighted' : ''}${mostPopular ? ' plan-card--popular' : ''}`}
      aria-labelledby={headingId}
      data-plan-type={plan.type}
    >
      {mostPopular || highlighted ? (
        <p className="plan-card__badges">
          {mostPopular ? <span className="plan-badge plan-badge--popular">{t('plans.mostPopular')}</span> : null}
          {highlighted ? <span className="plan-badge plan-badge--premium">{t('plans.recommended')}</span> : null}
        </p>
      ) : null}
      <Name id={headingId} className="plan-card__name">
        {plan.name}
      </Name>
      <p className="plan-card__price">
        <span className="visually-hidden">{t(annual ? 'plans.priceAnnual' : 'plans.priceMonthly', { price })}</span>
        <span aria-hidden="true">
          <span className="plan-card__amount">{price}</span>
          <span className="plan-card__period">{t(annual ? 'plans.perYear' : 'plans.perMonth')}</span>
        </span>
      </p>
      {annual ? (
        <p className="plan-card__saving">
          {t('plans.saving', { amount: formatPrice(annualSaving(plan.price), lang) })}
        </p>
      ) : null}
      {details.text ? <p className="plan-card__description">{details.text}</p> : null}
      {details.features.length ? (
        <>
          <ListTitle className="plan-card__list-title">{t('plans.features')}</ListTitle>
          <ul className="plan-card__features">
            {details.features.map((feature, i) => (
              <li key={i}>{feature}</li>
            ))}
          </ul>
        </>
      ) : null}
      {details.languages.length ? (
        <>
          <ListTitle className="plan-card__list-title">{t('plans.languages')}</ListTitle>
          <ul className="plan-card__languages">
            {details.languages.map((language, i) => (
              <li key={i}>{language}</li>
            ))}
          </ul>
        </>
      ) : null}
      {link ? (
        <a
          className={`button plan-card__select ${highlighted || mostPopular ? 'button--primary' : 'button--secondary'}`}
          href={link}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('plans.select')}
          <span className="visually-hidden">
            {' '}
            ({plan.name}) {t('app.opensInNewTab')}
          </span>
        </a>
      ) : null}
    </article>
  );
}
