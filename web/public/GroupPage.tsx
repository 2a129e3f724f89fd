// A category in a town ("Pharmacies in Andorra la Vella"): its places, each linked to its page.
// The server renders it only where the town has such places (src/pages/groups.ts); else a 404.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { isCategoryId } from '../../src/places/model/category-ids';
import { useT } from '../i18n';
import { useGroup } from '../lib/groups';
import { useLanguage } from '../lib/i18n';
import { useSiteTitle } from './Home';
import { setMeta } from './PlacePage';

export function GroupPage({ params }: { params: { category: string; town: string } }) {
  const t = useT();
  const { lang } = useLanguage();
  const siteTitle = useSiteTitle();
  const query = useGroup(params.category, params.town, lang);
  const group = query.data;
  const category = group && isCategoryId(group.category) ? t(`category.${group.category}`) : '';
  const title = group ? t('group.title', { category, town: group.town.name }) : t('group.notFound');

  useEffect(() => {
    // as the server's head says it (src/pages/pages.ts), for a page reached in the browser
    document.title = `${title} · ${siteTitle}`;
    if (group) setMeta('description', t('group.description', { category, town: group.town.name }));
  }, [group, title, category, siteTitle, t]);

  if (query.isPending) {
    return (
      <div className="page-loading" role="status">
        {t('app.loading')}
      </div>
    );
  }
  if (!group) {
    return (
      <section className="place-page place-page--missing" aria-labelledby="group-title">
        <h1 id="group-title">{t('group.notFound')}</h1>
        <p>{t('group.notFoundText')}</p>
        <Link href="/" className="button button--primary">
          {t('place.back')}
        </Link>
      </section>
    );
  }
  return (
    <article className="group-page container" aria-labelledby="group-title">
      <p className="place-page__back">
        <Link href="/">← {t('place.back')}</Link>
      </p>
      <h1 id="group-title">{title}</h1>
      <ul className="group-page__places">
        {group.places.map((place) => (
          <li key={place.id}>
            <Link href={`/place/${place.id}`}>{place.name ?? t('group.unnamed')}</Link>
            {place.address ? <span className="group-page__address"> · {place.address}</span> : null}
          </li>
        ))}
      </ul>
    </article>
  );
}
