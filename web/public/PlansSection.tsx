// The home page's plans: the first three, a link to all of them and a contact call to action.
// Shown only when plans exist.
import { Link } from 'wouter';
import { useT } from '../i18n';
import { usePlans } from '../lib/content';
import { PlanCard } from './PlanCard';

export const HOME_PLAN_COUNT = 3;

export function PlansSection() {
  const t = useT();
  const { data: plans } = usePlans();
  if (!plans?.length) return null;
  return (
    <section className="plans-section" aria-labelledby="home-plans-heading">
      <div className="container">
        <h2 id="home-plans-heading" className="section-heading">
          {t('plans.heading')}
        </h2>
        <p className="section-intro">{t('plans.intro')}</p>
        <ul className="plan-grid">
          {plans.slice(0, HOME_PLAN_COUNT).map((plan, index) => (
            <li key={plan.id}>
              <PlanCard plan={plan} period="monthly" mostPopular={index === 1} level={3} />
            </li>
          ))}
        </ul>
        <p className="plans-section__all">
          <Link href="/plans" className="button button--secondary">
            {t('plans.viewAll')}
          </Link>
        </p>
        <div className="cta-box">
          <div>
            <h3 className="cta-box__title">{t('plans.contactPrompt')}</h3>
            <p>{t('plans.contactText')}</p>
          </div>
          <Link href="/contact" className="button button--primary">
            {t('plans.contactUs')}
          </Link>
        </div>
      </div>
    </section>
  );
}
