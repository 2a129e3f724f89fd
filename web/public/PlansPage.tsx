// /plans: the billing toggle, every plan, the FAQ, contact sales and the free-trial line. The
// trial, the billing toggle and its saving, and their questions show only when there are plans
// to try or pay for.
import { Link } from 'wouter';
import { useState } from 'react';
import { useT, type TextKey } from '../i18n';
import { usePlans } from '../lib/content';
import type { BillingPeriod } from '../lib/plans';
import { PlanCard } from './PlanCard';

/** The questions, and whether each is about the plans on offer (left out while there are none). */
const FAQ: [TextKey, TextKey, boolean][] = [
  ['plans.faq.paymentQ', 'plans.faq.paymentA', true],
  ['plans.faq.trialQ', 'plans.faq.trialA', true],
  ['plans.faq.annualQ', 'plans.faq.annualA', true],
  ['plans.faq.supportQ', 'plans.faq.supportA', false],
];

export function PlansPage() {
  const t = useT();
  const { data: plans, isPending } = usePlans();
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const offered = Boolean(plans?.length);

  return (
    <div className="page plans-page">
      <div className="container">
        <header className="page-header">
          <h1 className="page-title">{t('plans.heading')}</h1>
          <p className="section-intro">{t('plans.intro')}</p>
          {offered ? <p className="plans-page__trial">{t('plans.trial')}</p> : null}
        </header>

        {offered ? (
          <div className="billing-toggle" role="group" aria-label={t('plans.billing')}>
            {(['monthly', 'annual'] as const).map((option) => (
              <button
                key={option}
                type="button"
                className="billing-toggle__option"
                aria-pressed={period === option}
                onClick={() => setPeriod(option)}
              >
                {t(option === 'monthly' ? 'plans.monthly' : 'plans.annual')}
                {option === 'annual' ? (
                  <span className="billing-toggle__discount"> {t('plans.annualDiscount')}</span>
                ) : null}
              </button>
            ))}
          </div>
        ) : null}

        {plans?.length ? (
          <ul className="plan-grid plan-grid--page">
            {plans.map((plan, index) => (
              <li key={plan.id}>
                <PlanCard plan={plan} period={period} mostPopular={index === 1} level={2} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="plans-page__empty">{isPending ? t('app.loading') : t('plans.empty')}</p>
        )}

        <section className="faq" aria-labelledby="faq-heading">
          <h2 id="faq-heading" className="section-heading">
            {t('plans.faqHeading')}
          </h2>
          {FAQ.filter(([, , aboutPlans]) => offered || !aboutPlans).map(([question, answer]) => (
            <details key={question} className="faq__item">
              <summary>{t(question)}</summary>
              <p>{t(answer)}</p>
            </details>
          ))}
        </section>

        <div className="cta-box">
          <div>
            <h2 className="cta-box__title">{t('plans.salesHeading')}</h2>
            <p>{t('plans.salesText')}</p>
          </div>
          <Link href="/contact" className="button button--primary">
            {t('plans.contactSales')}
          </Link>
        </div>
      </div>
    </div>
  );
}
