// Ads management: the carousel switch, carousel and static ads (one form that adds or edits),
// and background videos (their own form, enable/disable, delete).
import { useRef, useState, type ReactNode } from 'react';
import { describeError } from '../errors';
import { notice, useT, type Notice, type TextKey } from '../i18n';
import { MediaInput, NO_MEDIA, uploadProblemKey, useMediaUpload, type MediaValue } from '../MediaInput';
import { trpc, type RouterOutputs } from '../trpc';
import { usePublicRefresh } from '../usePublicRefresh';
import {
  Banner,
  Field,
  focusFirstInvalid,
  MediaPreview,
  PageTitle,
  RowButton,
  useConfirm,
  useFailureNotice,
} from '../ui';
import { isHttpUrl } from './Plans';

type AdsData = RouterOutputs['ads']['list'];
type Ad = AdsData['carousel'][number];
type AdType = 'carousel' | 'static';
type Video = AdsData['background_videos'][number];

const DEFAULT_INTERVAL = 5000;
const isMediaUrl = (value: string) => isHttpUrl(value) || /^\/uploads\/[^/]+$/.test(value);

export function Ads() {
  const t = useT();
  const ads = trpc.ads.list.useQuery();
  const [banner, setBanner] = useState<Notice | null>(null);
  const { confirm, dialog } = useConfirm();

  return (
    <section className="admin-page">
      <PageTitle>{t('adsManagement')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />
      {ads.isPending && <p role="status">{t('loading')}</p>}
      <CarouselSwitch enabled={ads.data?.carousel_enabled === 1} disabled={!ads.data} onNotice={setBanner} />
      <AdsSection ads={ads.data} onNotice={setBanner} confirm={confirm} />
      <VideosSection videos={ads.data?.background_videos} onNotice={setBanner} confirm={confirm} />
      {dialog}
    </section>
  );
}

type Confirm = (text: string, label?: string) => Promise<boolean>;

/** Runs one change to the ads or videos, announces it, and reloads them here and on the public site. */
function useAdsChange(onNotice: (n: Notice) => void) {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const fail = useFailureNotice(onNotice);
  return async (change: () => Promise<unknown>, done: TextKey) => {
    try {
      await change();
      onNotice(notice(t, done));
    } catch (error) {
      fail(error);
    }
    await utils.ads.list.invalidate();
    refreshPublic();
  };
}

function CarouselSwitch({
  enabled,
  disabled,
  onNotice,
}: {
  enabled: boolean;
  disabled: boolean;
  onNotice: (n: Notice) => void;
}) {
  const t = useT();
  const toggle = trpc.ads.setCarouselEnabled.useMutation();
  const change = useAdsChange(onNotice);

  async function flip() {
    const next = enabled ? 0 : 1;
    await change(() => toggle.mutateAsync({ enabled: next }), next ? 'carouselEnabled' : 'carouselDisabled');
  }

  return (
    <section className="admin-panel" aria-labelledby="carousel-switch-title">
      <h2 id="carousel-switch-title">{t('carousel')}</h2>
      <div className="admin-switch-row">
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          className="admin-switch"
          disabled={disabled || toggle.isPending}
          onClick={() => void flip()}
          data-testid="carousel-switch"
        >
          <span className="admin-switch-track" aria-hidden="true">
            <span className="admin-switch-thumb" />
          </span>
          <span>{t('showCarousel')}</span>
        </button>
        <span className="admin-muted">{enabled ? t('on') : t('off')}</span>
      </div>
    </section>
  );
}

/** What every ad and background video form has: a title, a link and the media. */
interface MediaForm {
  title: string;
  link: string;
  media: MediaValue;
}
/** An ad or video as stored. */
interface MediaItem {
  id: number;
  media: string;
}
type Errors<Form> = Partial<Record<keyof Form, string>>;
/** The fields of a form that a text input or select sets. */
type TextField<Form> = { [K in keyof Form]: Form[K] extends string ? K : never }[keyof Form];

/**
 * One add-or-edit form with a media input, for ads and for background videos: its values, the item
 * being edited, the errors, and the save, which uploads a chosen file first.
 */
function useMediaForm<Form extends MediaForm, Item extends MediaItem>(empty: Form, onNotice: (n: Notice) => void) {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const upload = useMediaUpload();
  const fail = useFailureNotice(onNotice);
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<Form>(empty);
  const [editing, setEditing] = useState<Item | null>(null);
  const [errors, setErrors] = useState<Errors<Form>>({});
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);

  const set = (field: TextField<Form>) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  function load(values: Form, item: Item | null) {
    setEditing(item);
    setForm(values);
    setErrors({});
    setResetKey((k) => k + 1);
  }

  const reset = () => load(empty, null);

  function startEdit(item: Item, values: Form) {
    load(values, item);
    formRef.current?.querySelector<HTMLElement>('select, input')?.focus();
  }

  /** The checks every such form makes: an optional http(s) link, and the media (required when adding). */
  function check(): Errors<Form> {
    const problems: Errors<MediaForm> = {};
    if (form.link.trim() && !isHttpUrl(form.link.trim())) problems.link = t('invalidUrl');
    if (!form.media.file && !form.media.url.trim() && !editing) problems.media = t('mediaRequired');
    else if (!form.media.file && form.media.url.trim() && !isMediaUrl(form.media.url.trim()))
      problems.media = t('invalidMediaUrl');
    return problems as Errors<Form>;
  }

  async function save<Fields>(
    problems: Errors<Form>,
    {
      fields,
      create,
      update,
      added,
      updated,
    }: {
      /** what is saved besides the media */
      fields: Fields;
      create: (input: Fields & { media_url: string }) => Promise<unknown>;
      update: (input: Fields & { id: number; media_url?: string }) => Promise<unknown>;
      added: TextKey;
      updated: TextKey;
    },
  ) {
    setErrors(problems);
    if (Object.keys(problems).length) {
      focusFirstInvalid(formRef.current);
      return;
    }
    setBusy(true);
    try {
      let mediaUrl: string;
      try {
        mediaUrl = await upload.resolve(form.media);
      } catch (error) {
        const key = uploadProblemKey(error);
        if (key && key !== 'pleaseLogin') {
          setErrors({ media: t(key) } as Errors<Form>);
          onNotice({ text: t(key), success: false });
        }
        return;
      }
      try {
        if (editing) await update({ id: editing.id, ...fields, ...(mediaUrl ? { media_url: mediaUrl } : {}) });
        else await create({ ...fields, media_url: mediaUrl });
      } catch (error) {
        const described = describeError(error, t);
        const field = described.field === 'media_url' ? 'media' : described.field;
        if (field && Object.hasOwn(empty, field)) setErrors({ [field]: described.text } as Errors<Form>);
        fail(error);
        return;
      }
      onNotice(notice(t, editing ? updated : added));
      reset();
      await utils.ads.list.invalidate();
      refreshPublic();
    } finally {
      setBusy(false);
    }
  }

  return {
    formRef,
    form,
    setForm,
    set,
    editing,
    errors,
    resetKey,
    busy,
    progress: upload.progress,
    reset,
    startEdit,
    check,
    save,
  };
}

/** The form's panel: the fields given as children, then the media input, then save and cancel. */
function MediaFormPanel<Form extends MediaForm, Item extends MediaItem>({
  id,
  editor,
  title,
  submitLabel,
  onSubmit,
  children,
}: {
  /** names the title ("ad-form-title") and the form ("ad-form") */
  id: string;
  editor: ReturnType<typeof useMediaForm<Form, Item>>;
  title: string;
  submitLabel: string;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  const t = useT();
  const { formRef, form, setForm, editing, errors, busy } = editor;
  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <form
        ref={formRef}
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
        noValidate
        data-testid={id}
      >
        {children}
        <MediaInput
          value={form.media}
          onChange={(media) => setForm((f) => ({ ...f, media }))}
          current={editing?.media}
          error={errors.media}
          progress={editor.progress}
          resetKey={editor.resetKey}
        />
        <div className="admin-actions">
          <button type="submit" className="admin-button admin-button-primary" disabled={busy}>
            {busy ? t('saving') : submitLabel}
          </button>
          {editing && (
            <button type="button" className="admin-button" onClick={editor.reset}>
              {t('cancelEdit')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

/** A panel listing ads or videos as cards; `id` names its title ("videos-title") and its list ("videos"). */
function MediaListPanel<Item>({
  id,
  title,
  empty,
  items,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  items: Item[] | undefined;
  children: (item: Item) => ReactNode;
}) {
  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {items?.length === 0 && <p>{empty}</p>}
      {!!items?.length && (
        <ul className="admin-media-list" data-testid={id}>
          {items.map(children)}
        </ul>
      )}
    </section>
  );
}

/** One ad or video: its media, title and details, then any `actions`, Edit and Delete. */
function MediaCard({
  item,
  details,
  actions,
  onEdit,
  onDelete,
}: {
  item: { media: string; title: string };
  details: ReactNode;
  actions?: ReactNode;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const t = useT();
  const name = item.title || t('untitled');
  return (
    <li className="admin-media-card">
      <MediaPreview url={item.media} alt={item.title || t('adPreview')} />
      <div className="admin-media-card-body">
        <strong>{name}</strong>
        {details}
        <div className="admin-row-actions">
          {actions}
          <RowButton action={t('edit')} name={name} onClick={onEdit} />
          <RowButton action={t('delete')} name={name} danger onClick={onDelete} />
        </div>
      </div>
    </li>
  );
}

interface AdForm extends MediaForm {
  type: AdType;
  interval: string;
}
const EMPTY_AD: AdForm = { type: 'carousel', title: '', link: '', interval: String(DEFAULT_INTERVAL), media: NO_MEDIA };

function AdsSection({
  ads,
  onNotice,
  confirm,
}: {
  ads: AdsData | undefined;
  onNotice: (n: Notice) => void;
  confirm: Confirm;
}) {
  const t = useT();
  const create = trpc.ads.create.useMutation();
  const update = trpc.ads.update.useMutation();
  const remove = trpc.ads.delete.useMutation();
  const change = useAdsChange(onNotice);
  const editor = useMediaForm<AdForm, Ad & { type: AdType }>(EMPTY_AD, onNotice);
  const { form, set, editing, errors } = editor;

  function submit() {
    const problems = editor.check();
    const interval = Number(form.interval);
    if (form.type === 'carousel' && (!Number.isInteger(interval) || interval < 1000 || interval > 600_000))
      problems.interval = t('intervalRange');
    return editor.save(problems, {
      fields: {
        type: form.type,
        title: form.title.trim(),
        link: form.link.trim(),
        interval: form.type === 'carousel' ? interval : DEFAULT_INTERVAL,
      },
      create: create.mutateAsync,
      update: update.mutateAsync,
      added: 'adAdded',
      updated: 'adUpdated',
    });
  }

  async function deleteAd(ad: Ad, type: AdType) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    await change(async () => {
      await remove.mutateAsync({ id: ad.id, type });
      if (editing?.id === ad.id) editor.reset();
    }, 'adDeleted');
  }

  const list = (type: AdType, items: Ad[] | undefined, title: TextKey) => (
    <MediaListPanel id={`${type}-ads`} title={t(title)} empty={t('noAds')} items={items}>
      {(ad) => (
        <MediaCard
          key={ad.id}
          item={ad}
          details={
            <>
              {ad.link && <span className="admin-muted admin-break">{ad.link}</span>}
              {type === 'carousel' && <span className="admin-muted">{t('intervalValue', { ms: ad.interval })}</span>}
            </>
          }
          onEdit={() =>
            editor.startEdit(
              { ...ad, type },
              { type, title: ad.title, link: ad.link, interval: String(ad.interval), media: NO_MEDIA },
            )
          }
          onDelete={() => void deleteAd(ad, type)}
        />
      )}
    </MediaListPanel>
  );

  return (
    <>
      <MediaFormPanel
        id="ad-form"
        editor={editor}
        title={editing ? t('editAd') : t('addAd')}
        submitLabel={editing ? t('updateAd') : t('addAd')}
        onSubmit={submit}
      >
        <div className="admin-grid-2">
          <Field label={t('adType')}>
            <select value={form.type} onChange={set('type')}>
              <option value="carousel">{t('adType_carousel')}</option>
              <option value="static">{t('adType_static')}</option>
            </select>
          </Field>
          <Field label={t('adTitle')} error={errors.title}>
            <input maxLength={200} value={form.title} onChange={set('title')} />
          </Field>
          <Field label={t('adLink')} hint={t('urlHintOptional')} error={errors.link}>
            <input type="url" inputMode="url" value={form.link} onChange={set('link')} />
          </Field>
          {form.type === 'carousel' && (
            <Field label={t('adInterval')} hint={t('adIntervalHint')} error={errors.interval}>
              <input
                type="number"
                min={1000}
                max={600000}
                step={100}
                value={form.interval}
                onChange={set('interval')}
              />
            </Field>
          )}
        </div>
      </MediaFormPanel>
      {list('carousel', ads?.carousel, 'carouselAds')}
      {list('static', ads?.static, 'staticAds')}
    </>
  );
}

interface VideoForm extends MediaForm {
  enabled: boolean;
}
const EMPTY_VIDEO: VideoForm = { title: '', link: '', enabled: true, media: NO_MEDIA };

function VideosSection({
  videos,
  onNotice,
  confirm,
}: {
  videos: Video[] | undefined;
  onNotice: (n: Notice) => void;
  confirm: Confirm;
}) {
  const t = useT();
  const create = trpc.videos.create.useMutation();
  const update = trpc.videos.update.useMutation();
  const toggle = trpc.videos.toggle.useMutation();
  const remove = trpc.videos.delete.useMutation();
  const change = useAdsChange(onNotice);
  const editor = useMediaForm<VideoForm, Video>(EMPTY_VIDEO, onNotice);
  const { form, setForm, set, editing, errors } = editor;

  function submit() {
    return editor.save(editor.check(), {
      fields: { title: form.title.trim(), link: form.link.trim(), enabled: form.enabled ? (1 as const) : (0 as const) },
      create: create.mutateAsync,
      update: update.mutateAsync,
      added: 'videoAdded',
      updated: 'videoUpdated',
    });
  }

  async function flip(video: Video) {
    const enabled = video.enabled === 1 ? 0 : 1;
    await change(() => toggle.mutateAsync({ id: video.id, enabled }), enabled ? 'videoTurnedOn' : 'videoTurnedOff');
  }

  async function deleteVideo(video: Video) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    await change(async () => {
      await remove.mutateAsync({ id: video.id });
      if (editing?.id === video.id) editor.reset();
    }, 'videoDeleted');
  }

  return (
    <>
      <MediaFormPanel
        id="video-form"
        editor={editor}
        title={editing ? t('editVideo') : t('addVideo')}
        submitLabel={editing ? t('updateVideo') : t('addVideo')}
        onSubmit={submit}
      >
        <div className="admin-grid-2">
          <Field label={t('videoTitle')} error={errors.title}>
            <input maxLength={200} value={form.title} onChange={set('title')} />
          </Field>
          <Field label={t('videoLink')} hint={t('urlHintOptional')} error={errors.link}>
            <input type="url" inputMode="url" value={form.link} onChange={set('link')} />
          </Field>
        </div>
        <div className="admin-check">
          <input
            id="video-enabled"
            type="checkbox"
            checked={form.enabled}
            onChange={(event) => setForm((f) => ({ ...f, enabled: event.target.checked }))}
          />
          <label htmlFor="video-enabled">{t('videoEnabled')}</label>
        </div>
      </MediaFormPanel>
      <MediaListPanel id="videos" title={t('backgroundVideos')} empty={t('noVideos')} items={videos}>
        {(video) => (
          <MediaCard
            key={video.id}
            item={video}
            details={
              <>
                {video.link && <span className="admin-muted admin-break">{video.link}</span>}
                <span className={video.enabled ? 'admin-status-on' : 'admin-muted'}>
                  {video.enabled ? t('enabled') : t('disabled')}
                </span>
              </>
            }
            actions={
              <RowButton
                action={video.enabled ? t('disable') : t('enable')}
                name={video.title || t('untitled')}
                onClick={() => void flip(video)}
              />
            }
            onEdit={() =>
              editor.startEdit(video, {
                title: video.title,
                link: video.link,
                enabled: video.enabled === 1,
                media: NO_MEDIA,
              })
            }
            onDelete={() => void deleteVideo(video)}
          />
        )}
      </MediaListPanel>
    </>
  );
}
