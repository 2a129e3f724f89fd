// Ads management: the carousel switch, carousel and static ads (one form that adds or edits),
// and background videos (their own form, enable/disable, delete).
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { describeError, isAuthProblem } from '../errors';
import { notice, useT, type Notice, type TextKey } from '../i18n';
import { MediaInput, NO_MEDIA, uploadProblemKey, useMediaUpload, type MediaValue } from '../MediaInput';
import { trpc, type RouterOutputs } from '../trpc';
import { usePublicRefresh } from '../usePublicRefresh';
import { Banner, Field, focusFirstInvalid, MediaPreview, PageTitle, RowAction, useConfirm } from '../ui';
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

function useFailureNotice(onNotice: (notice: Notice) => void) {
  const t = useT();
  return (error: unknown) => {
    if (!isAuthProblem(error)) onNotice({ text: describeError(error, t).text, success: false });
  };
}

function CarouselSwitch({ enabled, disabled, onNotice }: { enabled: boolean; disabled: boolean; onNotice: (n: Notice) => void }) {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const toggle = trpc.ads.setCarouselEnabled.useMutation();
  const fail = useFailureNotice(onNotice);

  async function flip() {
    const next = enabled ? 0 : 1;
    try {
      await toggle.mutateAsync({ enabled: next });
      onNotice(notice(t, next ? 'carouselEnabled' : 'carouselDisabled'));
    } catch (error) {
      fail(error);
    }
    await utils.ads.list.invalidate();
    refreshPublic();
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

interface AdForm {
  type: AdType;
  title: string;
  link: string;
  interval: string;
  media: MediaValue;
}
type AdErrors = Partial<Record<'title' | 'link' | 'interval' | 'media', string>>;
const EMPTY_AD: AdForm = { type: 'carousel', title: '', link: '', interval: String(DEFAULT_INTERVAL), media: NO_MEDIA };

function AdsSection({ ads, onNotice, confirm }: { ads: AdsData | undefined; onNotice: (n: Notice) => void; confirm: Confirm }) {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const create = trpc.ads.create.useMutation();
  const update = trpc.ads.update.useMutation();
  const remove = trpc.ads.delete.useMutation();
  const upload = useMediaUpload();
  const fail = useFailureNotice(onNotice);
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<AdForm>(EMPTY_AD);
  const [editing, setEditing] = useState<(Ad & { type: AdType }) | null>(null);
  const [errors, setErrors] = useState<AdErrors>({});
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);

  const set = (field: 'type' | 'title' | 'link' | 'interval') => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  function reset() {
    setForm(EMPTY_AD);
    setEditing(null);
    setErrors({});
    setResetKey((k) => k + 1);
  }

  function startEdit(ad: Ad, type: AdType) {
    setEditing({ ...ad, type });
    setForm({ type, title: ad.title, link: ad.link, interval: String(ad.interval), media: NO_MEDIA });
    setErrors({});
    setResetKey((k) => k + 1);
    formRef.current?.querySelector<HTMLElement>('select, input')?.focus();
  }

  function validate(): AdErrors {
    const problems: AdErrors = {};
    if (form.link.trim() && !isHttpUrl(form.link.trim())) problems.link = t('invalidUrl');
    const interval = Number(form.interval);
    if (form.type === 'carousel' && (!Number.isInteger(interval) || interval < 1000 || interval > 600_000)) problems.interval = t('intervalRange');
    if (!form.media.file && !form.media.url.trim() && !editing) problems.media = t('mediaRequired');
    else if (!form.media.file && form.media.url.trim() && !isMediaUrl(form.media.url.trim())) problems.media = t('invalidMediaUrl');
    return problems;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = validate();
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
          setErrors({ media: t(key) });
          onNotice({ text: t(key), success: false });
        }
        return;
      }
      const fields = {
        type: form.type,
        title: form.title.trim(),
        link: form.link.trim(),
        interval: form.type === 'carousel' ? Number(form.interval) : DEFAULT_INTERVAL,
      };
      try {
        if (editing) await update.mutateAsync({ id: editing.id, ...fields, ...(mediaUrl ? { media_url: mediaUrl } : {}) });
        else await create.mutateAsync({ ...fields, media_url: mediaUrl });
      } catch (error) {
        const described = describeError(error, t);
        const field = described.field === 'media_url' ? 'media' : described.field;
        if (field === 'title' || field === 'link' || field === 'interval' || field === 'media') setErrors({ [field]: described.text });
        fail(error);
        return;
      }
      onNotice(notice(t, editing ? 'adUpdated' : 'adAdded'));
      reset();
      await utils.ads.list.invalidate();
      refreshPublic();
    } finally {
      setBusy(false);
    }
  }

  async function deleteAd(ad: Ad, type: AdType) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: ad.id, type });
      onNotice(notice(t, 'adDeleted'));
      if (editing?.id === ad.id) reset();
    } catch (error) {
      fail(error);
    }
    await utils.ads.list.invalidate();
    refreshPublic();
  }

  const list = (type: AdType, items: Ad[] | undefined, title: TextKey) => (
    <section className="admin-panel" aria-labelledby={`${type}-ads-title`}>
      <h2 id={`${type}-ads-title`}>{t(title)}</h2>
      {items?.length === 0 && <p>{t('noAds')}</p>}
      {!!items?.length && (
        <ul className="admin-media-list" data-testid={`${type}-ads`}>
          {items.map((ad) => (
            <MediaCard
              key={ad.id}
              media={ad.media}
              title={ad.title}
              details={
                <>
                  {ad.link && <span className="admin-muted admin-break">{ad.link}</span>}
                  {type === 'carousel' && <span className="admin-muted">{t('intervalValue', { ms: ad.interval })}</span>}
                </>
              }
              actions={
                <>
                  <button type="button" className="admin-button admin-button-small" onClick={() => startEdit(ad, type)}>
                    <RowAction action={t('edit')} name={ad.title || t('untitled')} />
                  </button>
                  <button type="button" className="admin-button admin-button-small admin-button-danger" onClick={() => void deleteAd(ad, type)}>
                    <RowAction action={t('delete')} name={ad.title || t('untitled')} />
                  </button>
                </>
              }
            />
          ))}
        </ul>
      )}
    </section>
  );

  return (
    <>
      <section className="admin-panel" aria-labelledby="ad-form-title">
        <h2 id="ad-form-title">{editing ? t('editAd') : t('addAd')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={submit} noValidate data-testid="ad-form">
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
                <input type="number" min={1000} max={600000} step={100} value={form.interval} onChange={set('interval')} />
              </Field>
            )}
          </div>
          <MediaInput
            value={form.media}
            onChange={(media) => setForm((f) => ({ ...f, media }))}
            current={editing?.media}
            error={errors.media}
            progress={upload.progress}
            resetKey={resetKey}
          />
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={busy}>
              {busy ? t('saving') : editing ? t('updateAd') : t('addAd')}
            </button>
            {editing && (
              <button type="button" className="admin-button" onClick={reset}>
                {t('cancelEdit')}
              </button>
            )}
          </div>
        </form>
      </section>
      {list('carousel', ads?.carousel, 'carouselAds')}
      {list('static', ads?.static, 'staticAds')}
    </>
  );
}

function MediaCard({ media, title, details, actions }: { media: string; title: string; details: ReactNode; actions: ReactNode }) {
  const t = useT();
  return (
    <li className="admin-media-card">
      <MediaPreview url={media} alt={title || t('adPreview')} />
      <div className="admin-media-card-body">
        <strong>{title || t('untitled')}</strong>
        {details}
        <div className="admin-row-actions">{actions}</div>
      </div>
    </li>
  );
}

interface VideoForm {
  title: string;
  link: string;
  enabled: boolean;
  media: MediaValue;
}
const EMPTY_VIDEO: VideoForm = { title: '', link: '', enabled: true, media: NO_MEDIA };

function VideosSection({ videos, onNotice, confirm }: { videos: Video[] | undefined; onNotice: (n: Notice) => void; confirm: Confirm }) {
  const t = useT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const create = trpc.videos.create.useMutation();
  const update = trpc.videos.update.useMutation();
  const toggle = trpc.videos.toggle.useMutation();
  const remove = trpc.videos.delete.useMutation();
  const upload = useMediaUpload();
  const fail = useFailureNotice(onNotice);
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<VideoForm>(EMPTY_VIDEO);
  const [editing, setEditing] = useState<Video | null>(null);
  const [errors, setErrors] = useState<Partial<Record<'title' | 'link' | 'media', string>>>({});
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);

  function reset() {
    setForm(EMPTY_VIDEO);
    setEditing(null);
    setErrors({});
    setResetKey((k) => k + 1);
  }

  function startEdit(video: Video) {
    setEditing(video);
    setForm({ title: video.title, link: video.link, enabled: video.enabled === 1, media: NO_MEDIA });
    setErrors({});
    setResetKey((k) => k + 1);
    formRef.current?.querySelector<HTMLElement>('input')?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: typeof errors = {};
    if (form.link.trim() && !isHttpUrl(form.link.trim())) problems.link = t('invalidUrl');
    if (!form.media.file && !form.media.url.trim() && !editing) problems.media = t('mediaRequired');
    else if (!form.media.file && form.media.url.trim() && !isMediaUrl(form.media.url.trim())) problems.media = t('invalidMediaUrl');
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
          setErrors({ media: t(key) });
          onNotice({ text: t(key), success: false });
        }
        return;
      }
      const fields = { title: form.title.trim(), link: form.link.trim(), enabled: form.enabled ? (1 as const) : (0 as const) };
      try {
        if (editing) await update.mutateAsync({ id: editing.id, ...fields, ...(mediaUrl ? { media_url: mediaUrl } : {}) });
        else await create.mutateAsync({ ...fields, media_url: mediaUrl });
      } catch (error) {
        const described = describeError(error, t);
        const field = described.field === 'media_url' ? 'media' : described.field;
        if (field === 'title' || field === 'link' || field === 'media') setErrors({ [field]: described.text });
        fail(error);
        return;
      }
      onNotice(notice(t, editing ? 'videoUpdated' : 'videoAdded'));
      reset();
      await utils.ads.list.invalidate();
      refreshPublic();
    } finally {
      setBusy(false);
    }
  }

  async function flip(video: Video) {
    const enabled = video.enabled === 1 ? 0 : 1;
    try {
      await toggle.mutateAsync({ id: video.id, enabled });
      onNotice(notice(t, enabled ? 'videoTurnedOn' : 'videoTurnedOff'));
    } catch (error) {
      fail(error);
    }
    await utils.ads.list.invalidate();
    refreshPublic();
  }

  async function deleteVideo(video: Video) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    try {
      await remove.mutateAsync({ id: video.id });
      onNotice(notice(t, 'videoDeleted'));
      if (editing?.id === video.id) reset();
    } catch (error) {
      fail(error);
    }
    await utils.ads.list.invalidate();
    refreshPublic();
  }

  return (
    <>
      <section className="admin-panel" aria-labelledby="video-form-title">
        <h2 id="video-form-title">{editing ? t('editVideo') : t('addVideo')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={submit} noValidate data-testid="video-form">
          <div className="admin-grid-2">
            <Field label={t('videoTitle')} error={errors.title}>
              <input maxLength={200} value={form.title} onChange={(event) => setForm((f) => ({ ...f, title: event.target.value }))} />
            </Field>
            <Field label={t('videoLink')} hint={t('urlHintOptional')} error={errors.link}>
              <input type="url" inputMode="url" value={form.link} onChange={(event) => setForm((f) => ({ ...f, link: event.target.value }))} />
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
          <MediaInput
            value={form.media}
            onChange={(media) => setForm((f) => ({ ...f, media }))}
            current={editing?.media}
            error={errors.media}
            progress={upload.progress}
            resetKey={resetKey}
          />
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={busy}>
              {busy ? t('saving') : editing ? t('updateVideo') : t('addVideo')}
            </button>
            {editing && (
              <button type="button" className="admin-button" onClick={reset}>
                {t('cancelEdit')}
              </button>
            )}
          </div>
        </form>
      </section>
      <section className="admin-panel" aria-labelledby="videos-title">
        <h2 id="videos-title">{t('backgroundVideos')}</h2>
        {videos?.length === 0 && <p>{t('noVideos')}</p>}
        {!!videos?.length && (
          <ul className="admin-media-list" data-testid="videos">
            {videos.map((video) => (
              <MediaCard
                key={video.id}
                media={video.media}
                title={video.title}
                details={
                  <>
                    {video.link && <span className="admin-muted admin-break">{video.link}</span>}
                    <span className={video.enabled ? 'admin-status-on' : 'admin-muted'}>{video.enabled ? t('enabled') : t('disabled')}</span>
                  </>
                }
                actions={
                  <>
                    <button type="button" className="admin-button admin-button-small" onClick={() => void flip(video)}>
                      <RowAction action={video.enabled ? t('disable') : t('enable')} name={video.title || t('untitled')} />
                    </button>
                    <button type="button" className="admin-button admin-button-small" onClick={() => startEdit(video)}>
                      <RowAction action={t('edit')} name={video.title || t('untitled')} />
                    </button>
                    <button type="button" className="admin-button admin-button-small admin-button-danger" onClick={() => void deleteVideo(video)}>
                      <RowAction action={t('delete')} name={video.title || t('untitled')} />
                    </button>
                  </>
                }
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
