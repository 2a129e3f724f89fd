// The home page's towns and the kinds of places each has, linked to their group pages: how a
// crawler without JavaScript reaches every place page from / (home -> group -> place).
import { Link } from 'wouter';
import { useT } from '../i18n';
import { groupPath, useGroups } from '../lib/groups';

export function BrowseSection() {
  const t = useT();
  const { data } = useGroups();
  if (!data?.towns.length) return null;
  return (
    <section className="browse-section" aria-labelledby="browse-heading">
      <div className="container">
        <h2 id="browse-heading" className="section-heading">
          {t('browse.heading')}
        </h2>
        <p className="section-intro">{t('browse.intro')}</p>
        <div className="browse-section__towns">
          {data.towns.map((town) => (
            <section key={town.slug} className="browse-section__town" aria-labelledby={`browse-${town.slug}`}>
              <h3 id={`browse-${town.slug}`}>{town.name}</h3>
              <ul>
                {town.categories.map(({ id, count }) => (
                  <li key={id}>
                    <Link href={groupPath(id, town.slug)}>{t(`category.${id}`)}</Link> ({count})
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </div>
    </section>
  );
}
