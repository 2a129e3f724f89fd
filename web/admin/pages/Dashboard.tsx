// Dashboard: how to load places while the site has none, the counts at a glance, the visit
// counter and its reset, the five latest messages, quick links, and visits per day over the last
// 30 days.
import { lazy, Suspense, useEffect, useState } from 'react';
import { isCategoryId } from '../../../src/places/model/category-ids';
import { useT as usePublicT } from '../../i18n';
import { Link } from 'wouter';
import { notice, useT, type Notice } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import { Banner, PageTitle, useConfirm, useFailureNotice, useFormatDate } from '../ui';
import { VisitsChart } from './VisitsChart';

const SearchAreasMap = lazy(() => import('./SearchAreasMap'));

export function Dashboard() {
  const t = useT();
  const formatDate = useFormatDate();
  const utils = trpc.useUtils();
  const { confirm, dialog } = useConfirm();
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);

  const messages = trpc.messages.list.useQuery();
  const ads = trpc.ads.list.useQuery();
  const plans = trpc.plans.list.useQuery();
  const visits = trpc.visits.get.useQuery();
  const daily = trpc.visits.daily.useQuery({ days: 30 });
  const searches = trpc.visits.searches.useQuery();
  const sources = trpc.data.sources.useQuery();
  const reset = trpc.visits.reset.useMutation();

  // A failure to load shows every count as zero (and is logged).
  const failed = [messages, ads, plans, visits].some((query) => query.isError);
  useEffect(() => {
    if (failed) console.warn('Dashboard data failed to load');
  }, [failed]);

  const messageList = failed ? [] : (messages.data ?? []);
  const counts = {
    messages: messageList.length,
    unread: messageList.filter((message) => message.status === 'unread').length,
    ads: failed ? 0 : (ads.data?.carousel.length ?? 0) + (ads.data?.static.length ?? 0),
    plans: failed ? 0 : (plans.data?.length ?? 0),
    current: failed ? 0 : (visits.data?.current_visits ?? 0),
    total: failed ? 0 : (visits.data?.total_visits ?? 0),
  };
  const lastReset = failed ? null : (visits.data?.last_reset ?? null);

  async function resetVisits() {
    if (!(await confirm(t('confirmResetVisits'), t('reset')))) return;
    try {
      await reset.mutateAsync();
      setBanner(notice(t, 'visitsReset'));
      await utils.visits.invalidate();
    } catch (error) {
      fail(error);
    }
  }

  const loading = !failed && [messages, ads, plans, visits].some((query) => query.isPending);

  return (
    <section className="admin-page">
      <PageTitle>{t('navDashboard')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />
      {loading && <p role="status">{t('loading')}</p>}
      {failed && (
        <p className="admin-error-text" role="alert">
          {t('errorLoading')}
        </p>
      )}

      {sources.data?.totals.places === 0 && <NoPlacesPanel />}

      <ul className="admin-stats" aria-label={t('statistics')}>
        <StatCard label={t('totalMessages')} value={counts.messages} href="/admin/messages" testId="stat-messages" />
        <StatCard label={t('unreadMessages')} value={counts.unread} href="/admin/messages" testId="stat-unread" />
        <StatCard label={t('totalAds')} value={counts.ads} href="/admin/ads" testId="stat-ads" />
        <StatCard label={t('totalPlans')} value={counts.plans} href="/admin/plans" testId="stat-plans" />
        <li className="admin-stat" data-testid="stat-current-visits">
          <span className="admin-stat-label">{t('currentVisits')}</span>
          <span className="admin-stat-value">{counts.current}</span>
          <span className="admin-stat-note">
            {t('lastReset')}: {lastReset ? formatDate(lastReset) : t('never')}
          </span>
          <button
            type="button"
            className="admin-button admin-button-small"
            onClick={() => void resetVisits()}
            disabled={reset.isPending}
          >
            {t('reset')}
          </button>
        </li>
        <StatCard label={t('totalVisits')} value={counts.total} testId="stat-total-visits" />
      </ul>

      <div className="admin-columns">
        <section className="admin-panel" aria-labelledby="recent-activity">
          <h2 id="recent-activity">{t('recentActivity')}</h2>
          {messageList.length === 0 ? (
            <p>{t('noMessages')}</p>
          ) : (
            <ul className="admin-recent" data-testid="recent-activity">
              {messageList.slice(0, 5).map((message) => (
                <li key={message.id} className={message.status === 'unread' ? 'admin-unread' : undefined}>
                  <Link href={`/admin/messages?id=${message.id}`}>
                    <strong>{message.name}</strong> · {message.subject}
                  </Link>
                  <span className="admin-muted"> {formatDate(message.date)}</span>
                  {message.status === 'unread' && <span className="admin-badge admin-badge-unread">{t('unread')}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="admin-panel" aria-labelledby="quick-actions">
          <h2 id="quick-actions">{t('quickActions')}</h2>
          <ul className="admin-quick-actions">
            <li>
              <Link href="/admin/messages">{t('quickMessages')}</Link>
            </li>
            <li>
              <Link href="/admin/ads">{t('quickAds')}</Link>
            </li>
            <li>
              <Link href="/admin/plans">{t('quickPlans')}</Link>
            </li>
            <li>
              <Link href="/admin/settings">{t('quickSettings')}</Link>
            </li>
          </ul>
        </section>
      </div>

      <section className="admin-panel" aria-labelledby="visits-chart">
        <h2 id="visits-chart">{t('visitsPerDay')}</h2>
        <VisitsChart days={daily.data ?? []} />
      </section>
      <SearchStatsPanel report={searches.data} />
      {dialog}
    </section>
  );
}

/** While the index holds no place at all: how to load some, on the server or from the admin. */
function NoPlacesPanel() {
  const t = useT();
  return (
    <section className="admin-panel admin-panel-notice" aria-labelledby="no-places" data-testid="no-places">
      <h2 id="no-places">{t('noPlacesHeading')}</h2>
      <p>{t('noPlacesText')}</p>
      <pre className="admin-command">
        <code>npm run import -- &lt;extract.osm.pbf&gt;</code>
      </pre>
      <p>
        {t('noPlacesDataPage')} <Link href="/admin/places">{t('navPlacesData')}</Link>
      </p>
    </section>
  );
}

/** What visitors look for: top categories, the areas where searches found nothing, the trend. */
function SearchStatsPanel({ report }: { report: RouterOutputs['visits']['searches'] | undefined }) {
  const t = useT();
  const publicT = usePublicT();
  const empty = report?.empty_areas ?? [];
  return (
    <section className="admin-panel" aria-labelledby="search-stats" data-testid="search-stats">
      <h2 id="search-stats">{t('searchStats')}</h2>
      <div className="admin-columns">
        <section aria-labelledby="top-categories">
          <h3 id="top-categories">{t('topCategories')}</h3>
          {report?.top_categories.length ? (
            <ol className="admin-top-categories">
              {report.top_categories.map(({ category, count }) => (
                <li key={category}>
                  {isCategoryId(category) ? publicT(`category.${category}`) : category}: {t('searchCount', { count })}
                </li>
              ))}
            </ol>
          ) : (
            <p>{t('noSearchesYet')}</p>
          )}
        </section>
        <section aria-labelledby="empty-searches">
          <h3 id="empty-searches">{t('emptySearches')}</h3>
          <p className="admin-hint">{t('emptySearchesHint')}</p>
          {empty.length ? (
            <>
              <ul className="admin-empty-areas">
                {empty.slice(0, 10).map((area) => (
                  <li key={`${area.lat},${area.lon}`}>
                    <a
                      href={`https://www.openstreetmap.org/#map=14/${area.lat}/${area.lon}`}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      {area.lat.toFixed(2)}, {area.lon.toFixed(2)}
                    </a>
                    : {t('searchCount', { count: area.count })}
                  </li>
                ))}
              </ul>
              <Suspense fallback={<div className="admin-search-map" />}>
                <SearchAreasMap areas={empty} />
              </Suspense>
            </>
          ) : (
            <p>{t('noSearchesYet')}</p>
          )}
        </section>
      </div>
      <h3>{t('searchesPerDay')}</h3>
      <VisitsChart kind="searches" days={(report?.trend ?? []).map((d) => ({ day: d.day, count: d.searches }))} />
    </section>
  );
}

function StatCard({ label, value, href, testId }: { label: string; value: number; href?: string; testId: string }) {
  const body = (
    <>
      <span className="admin-stat-label">{label}</span>
      <span className="admin-stat-value">{value}</span>
    </>
  );
  return (
    <li className="admin-stat" data-testid={testId}>
      {href ? (
        <Link href={href} className="admin-stat-link">
          {body}
        </Link>
      ) : (
        body
      )}
    </li>
  );
}
