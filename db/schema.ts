// The Kysely `Database`: one interface per table, snake_case columns as stored.
import type { ColumnType, Generated } from 'kysely';

/** Text timestamps are ISO-8601 UTC strings; session times are epoch milliseconds. */
type CreatedAt = ColumnType<string, string | undefined, never>;

export interface SettingsTable {
  key: string;
  /** JSON-encoded value */
  value: string;
}

export interface AdminUsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  /** 1 while the account is on a generated password that must be changed */
  must_change_password: number;
  created_at: CreatedAt;
}

export interface SessionsTable {
  /** sha256 of the cookie value: a leaked table does not leak live sessions */
  id_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
}

export interface AdsTable {
  id: Generated<number>;
  kind: 'carousel' | 'static';
  title: string;
  link: string;
  media: string;
  interval: number;
  created_at: CreatedAt;
}

export interface BackgroundVideosTable {
  id: Generated<number>;
  title: string;
  link: string;
  media: string;
  enabled: number;
  created_at: CreatedAt;
}

export interface CarouselTable {
  id: number;
  enabled: number;
}

export interface PlansTable {
  id: Generated<number>;
  name: string;
  /** price in cents, so that two decimals stay exact */
  price_cents: number;
  type: 'basic' | 'pro' | 'premium';
  /** a plain string, or JSON of {features, languages} when description_is_structured = 1 */
  description: string;
  description_is_structured: number;
  link: string;
  created_at: CreatedAt;
}

export interface MessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  body: string;
  status: 'unread' | 'read';
  created_at: CreatedAt;
}

export interface VisitCountersTable {
  id: number;
  current_visits: number;
  total_visits: number;
  last_reset: string | null;
}

export interface VisitsDailyTable {
  /** YYYY-MM-DD, UTC */
  day: string;
  count: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  admin_user_id: number | null;
  username: string;
  action: string;
  /** JSON detail, never a password */
  detail: string | null;
  created_at: CreatedAt;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** epoch ms at which the window ends */
  reset_at: number;
}

export interface LeasesTable {
  name: string;
  owner: string;
  expires_at: number;
}

export interface DataVersionsTable {
  name: string;
  version: number;
}

export interface MediaTable {
  /** the stored name, as in /uploads/<name> */
  name: string;
  mime: string;
  size: number;
  sha256: string;
  complete: number;
  created_at: number;
}

export interface MediaChunksTable {
  name: string;
  seq: number;
  data: Uint8Array;
}

export interface Database {
  settings: SettingsTable;
  admin_users: AdminUsersTable;
  sessions: SessionsTable;
  ads: AdsTable;
  background_videos: BackgroundVideosTable;
  carousel: CarouselTable;
  plans: PlansTable;
  messages: MessagesTable;
  visit_counters: VisitCountersTable;
  visits_daily: VisitsDailyTable;
  search_stats_daily: SearchStatsDailyTable;
  audit_log: AuditLogTable;
  schema_migrations: SchemaMigrationsTable;
  rate_limits: RateLimitsTable;
  leases: LeasesTable;
  data_versions: DataVersionsTable;
  media: MediaTable;
  media_chunks: MediaChunksTable;
  data_jobs: DataJobsTable;
  site_keys: SiteKeysTable;
  site_key_usage: SiteKeyUsageTable;
}

/** Keys other sites read the public API and embed the locator with (migration 0013). */
export interface SiteKeysTable {
  id: Generated<number>;
  name: string;
  key: string;
  /** JSON array of the origins whose pages may use the key */
  origins: string;
  /** requests per UTC day */
  daily_limit: number;
  created_at: CreatedAt;
}

/** Requests per key and UTC day (migration 0013). */
export interface SiteKeyUsageTable {
  key_id: number;
  /** YYYY-MM-DD, UTC */
  day: string;
  count: number;
}

/** The admin data page's long tasks (an update, an import from a URL), for every process to read (migration 0006). */
export interface DataJobsTable {
  id: string;
  kind: 'update' | 'import';
  state: 'running' | 'done' | 'failed';
  /** JSON */
  progress: string | null;
  /** JSON */
  result: string | null;
  error: string | null;
  started_at: number;
  updated_at: number;
}

/** Searches per UTC day by kind (search, category, city, empty, few) and key (migration 0005). */
export interface SearchStatsDailyTable {
  day: string;
  kind: 'search' | 'category' | 'city' | 'empty' | 'few';
  key: string;
  count: number;
}
