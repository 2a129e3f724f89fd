// Visits (or searches) per day as a plain SVG bar chart, with the same figures in a table for
// screen readers. Each kind has its own texts: the searches chart once wore the visits' caption.
import { useLanguage } from '../../lib/i18n';
import { useT, type TextKey } from '../i18n';

const WIDTH = 600;
const HEIGHT = 180;
const AXIS = 24; // room for the day labels under the bars

type Kind = 'visits' | 'searches' | 'requests';
const TEXTS: Record<Kind, { summary: TextKey; caption: TextKey; title: TextKey; column: TextKey }> = {
  visits: { summary: 'chartSummary', caption: 'chartCaption', title: 'visitsPerDay', column: 'visits' },
  searches: {
    summary: 'searchesChartSummary',
    caption: 'searchesChartCaption',
    title: 'searchesPerDay',
    column: 'searches',
  },
  requests: {
    summary: 'requestsChartSummary',
    caption: 'requestsChartCaption',
    title: 'requestsPerDay',
    column: 'requests',
  },
};

export function VisitsChart({ days, kind = 'visits' }: { days: { day: string; count: number }[]; kind?: Kind }) {
  const t = useT();
  const texts = TEXTS[kind];
  const { lang } = useLanguage();
  const max = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const slot = WIDTH / Math.max(1, days.length);
  const barHeight = (count: number) => (count / max) * (HEIGHT - AXIS - 12);
  // Days are UTC dates (YYYY-MM-DD): shown as such, whatever the browser's time zone.
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
      new Date(`${day}T00:00:00Z`),
    );

  return (
    <figure className="admin-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t(texts.summary, { days: days.length, total, max })}
        data-testid={`${kind}-chart`}
      >
        <line x1={0} y1={HEIGHT - AXIS} x2={WIDTH} y2={HEIGHT - AXIS} className="admin-chart-axis" />
        {days.map((d, i) => {
          const h = barHeight(d.count);
          return (
            <g key={d.day}>
              <rect
                x={i * slot + 2}
                y={HEIGHT - AXIS - h}
                width={Math.max(1, slot - 4)}
                height={h}
                className="admin-chart-bar"
                data-day={d.day}
                data-count={d.count}
              >
                <title>{`${dayLabel(d.day)}: ${d.count}`}</title>
              </rect>
              {i % 5 === 0 && (
                <text x={i * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle" className="admin-chart-label">
                  {dayLabel(d.day)}
                </text>
              )}
            </g>
          );
        })}
        <text x={4} y={12} className="admin-chart-label">
          {t('chartMax', { max })}
        </text>
      </svg>
      <figcaption className="admin-muted">{t(texts.caption, { total })}</figcaption>
      {/* In a hidden box: a table ignores the 1 px height a hidden element is given, and its rows
          would stretch the page below the footer. */}
      <div className="visually-hidden">
        <table>
          <caption>{t(texts.title)}</caption>
          <thead>
            <tr>
              <th scope="col">{t('day')}</th>
              <th scope="col">{t(texts.column)}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <td>{dayLabel(d.day)}</td>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
