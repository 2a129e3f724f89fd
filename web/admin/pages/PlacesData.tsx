// The places data page: where the index's places come from and how fresh they are
// (update a source now, import from a URL, remove a source), and the admin's own places, one by
// one (position typed or picked on the map) or as CSV. Long tasks run on the server as jobs; the
// page polls the job and shows its progress and result.
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { CATEGORY_IDS } from '../../../src/places/model/category-ids';
import { useT as usePublicT } from '../../i18n';
import { useLanguage } from '../../lib/i18n';
import { describeError, isAuthProblem, isRefusedAddress } from '../errors';
import { notice, useT, type Notice, type Translate } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import {
  Banner,
  Field,
  focusFirstInvalid,
  PageTitle,
  RowButton,
  useConfirm,
  useFailureNotice,
  useFormatDate,
} from '../ui';
import { isHttpUrl } from './Plans';

const PositionPicker = lazy(() => import('./PositionPicker'));

type Source = RouterOutputs['data']['sources']['sources'][number];
type OwnPlace = RouterOutputs['data']['own']['list'][number];
type Job = RouterOutputs['data']['job'];

interface OwnForm {
  name: string;
  category: string;
  lat: string;
  lon: string;
  address: string;
  phone: string;
  website: string;
  opening_hours: string;
}
type OwnErrors = Partial<Record<keyof OwnForm, string>>;
const EMPTY: OwnForm = {
  name: '',
  category: '',
  lat: '',
  lon: '',
  address: '',
  phone: '',
  website: '',
  opening_hours: '',
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

function validate(form: OwnForm, t: Translate): OwnErrors {
  const errors: OwnErrors = {};
  if (!form.name.trim()) errors.name = t('fieldRequired');
  if (!form.category) errors.category = t('chooseCategory');
  const lat = Number(form.lat);
  if (!NUMBER.test(form.lat.trim()) || Math.abs(lat) > 90) errors.lat = t('latInvalid');
  const lon = Number(form.lon);
  if (!NUMBER.test(form.lon.trim()) || Math.abs(lon) > 180) errors.lon = t('lonInvalid');
  if (form.website.trim() && !isHttpUrl(form.website.trim())) errors.website = t('invalidUrl');
  return errors;
}

/** What a job is doing, in words. */
function jobProgress(job: Job, t: Translate): string {
  const p = (job.progress ?? {}) as {
    stage?: string;
    done?: number;
    total?: number;
    sequence?: number;
    first?: number;
    last?: number;
  };
  if (p.sequence !== undefined)
    return t('jobSequence', {
      sequence: p.sequence,
      done: p.sequence - (p.first ?? p.sequence) + 1,
      total: (p.last ?? p.sequence) - (p.first ?? p.sequence) + 1,
    });
  if (p.stage === 'download') return t('jobDownload');
  if (p.stage === 'read' && p.total) return t('jobReading', { percent: Math.round(((p.done ?? 0) / p.total) * 100) });
  if (p.stage === 'write') return t('jobWriting');
  return t('jobRunning');
}

/** A finished job as a banner. */
function jobNotice(job: Job, t: Translate): Notice {
  if (job.state === 'failed') {
    // A redirect to a private address is refused as the download goes: said as the form says it.
    const error = job.error && isRefusedAddress(job.error) ? t('urlRefused') : (job.error ?? '');
    return { text: t('jobFailed', { error }), success: false };
  }
  const r = (job.result ?? {}) as Record<string, number | string | null>;
  if (job.kind === 'update') {
    if (!r.sequences) return notice(t, 'jobUpToDate', { to: r.to ?? '' });
    return notice(t, 'jobUpdateDone', {
      from: Number(r.from) + 1,
      to: r.to ?? '',
      created: r.created ?? 0,
      modified: r.modified ?? 0,
      deleted: r.deleted ?? 0,
    });
  }
  return notice(t, 'jobImportDone', {
    places: r.places ?? 0,
    source: r.source ?? '',
    added: r.added ?? 0,
    replaced: r.replaced ?? 0,
    removed: r.removed ?? 0,
  });
}

export function PlacesData() {
  const t = useT();
  const publicT = usePublicT();
  const { lang } = useLanguage();
  const formatDate = useFormatDate();
  const utils = trpc.useUtils();
  const { confirm, dialog } = useConfirm();
  const [banner, setBanner] = useState<Notice | null>(null);
  const fail = useFailureNotice(setBanner);

  const sources = trpc.data.sources.useQuery();
  const own = trpc.data.own.list.useQuery();
  const startUpdate = trpc.data.update.useMutation();
  const startImport = trpc.data.importUrl.useMutation();
  const removeSource = trpc.data.removeSource.useMutation();
  const saveOwn = trpc.data.own.save.useMutation();
  const deleteOwn = trpc.data.own.delete.useMutation();
  const importCsv = trpc.data.own.importCsv.useMutation();

  // The job the page follows: polled every half second while it runs.
  const [jobId, setJobId] = useState<string | null>(null);
  const job = trpc.data.job.useQuery(
    { id: jobId ?? '' },
    { enabled: jobId !== null, refetchInterval: (query) => (query.state.data?.state === 'running' ? 500 : false) },
  );
  useEffect(() => {
    if (!job.data || job.data.state === 'running') return;
    setBanner(jobNotice(job.data, t));
    setJobId(null);
    void utils.data.sources.invalidate();
  }, [job.data, t, utils]);
  const busy = jobId !== null;

  const [url, setUrl] = useState('');
  const [sourceName, setSourceName] = useState('');
  const [urlError, setUrlError] = useState<string | undefined>();

  const dataDate = (iso: string | null) =>
    iso
      ? t('dataAsOf', {
          date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso)),
        })
      : t('dataAsOfUnknown');
  const count = (n: number) => new Intl.NumberFormat(lang).format(n);

  async function update(source: Source) {
    try {
      setJobId((await startUpdate.mutateAsync({ source: source.name })).job);
    } catch (error) {
      fail(error);
    }
  }

  async function importFromUrl(event: FormEvent) {
    event.preventDefault();
    if (!isHttpUrl(url.trim())) {
      setUrlError(t('invalidUrl'));
      return;
    }
    setUrlError(undefined);
    try {
      setJobId((await startImport.mutateAsync({ url: url.trim(), source: sourceName.trim() || undefined })).job);
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      setUrlError(described.text);
    }
  }

  async function remove(source: Source) {
    if (!(await confirm(t('confirmRemoveSource', { name: source.name, count: source.places }), t('removeSource'))))
      return;
    try {
      const { removed } = await removeSource.mutateAsync({ source: source.name });
      setBanner(notice(t, 'sourceRemoved', { count: removed }));
    } catch (error) {
      fail(error);
    }
    await utils.data.sources.invalidate();
  }

  // Own places: one form that adds or (after Edit) updates.
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<OwnForm>(EMPTY);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [errors, setErrors] = useState<OwnErrors>({});
  const set = (field: keyof OwnForm) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: event.target.value }));

  // Opening hours are checked as they are typed (by the server's opening_hours library).
  const [hoursTyped, setHoursTyped] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setHoursTyped(form.opening_hours.trim()), 300);
    return () => clearTimeout(timer);
  }, [form.opening_hours]);
  const hoursCheck = trpc.data.own.checkHours.useQuery({ value: hoursTyped }, { enabled: hoursTyped !== '' });
  const hoursProblem =
    hoursTyped && hoursCheck.data && !hoursCheck.data.valid
      ? t('hoursInvalid', { reason: hoursCheck.data.problem ?? '' })
      : undefined;

  function startEdit(place: OwnPlace) {
    setForm({
      name: place.name,
      category: place.category,
      lat: String(place.lat),
      lon: String(place.lon),
      address: place.address ?? '',
      phone: place.phone ?? '',
      website: place.website ?? '',
      opening_hours: place.opening_hours ?? '',
    });
    setEditingId(place.id);
    setErrors({});
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }

  function cancelEdit() {
    setForm(EMPTY);
    setEditingId(null);
    setErrors({});
  }

  async function submitOwn(event: FormEvent) {
    event.preventDefault();
    const problems = validate(form, t);
    if (hoursProblem) problems.opening_hours = hoursProblem;
    setErrors(problems);
    if (Object.keys(problems).length) {
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      await saveOwn.mutateAsync({ ...(editingId !== null ? { id: editingId } : {}), ...form });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      if (described.field && described.field in EMPTY) {
        setErrors({ [described.field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner({ text: described.text, success: false });
      return;
    }
    setBanner(notice(t, 'ownSaved'));
    cancelEdit();
    await Promise.all([utils.data.own.list.invalidate(), utils.data.sources.invalidate()]);
  }

  async function removeOwn(place: OwnPlace) {
    if (!(await confirm(t('confirmDeleteItem'), t('delete')))) return;
    try {
      await deleteOwn.mutateAsync({ id: place.id });
      setBanner(notice(t, 'ownDeleted'));
      if (editingId === place.id) cancelEdit();
    } catch (error) {
      fail(error);
    }
    await Promise.all([utils.data.own.list.invalidate(), utils.data.sources.invalidate()]);
  }

  // CSV in and out.
  const fileRef = useRef<HTMLInputElement>(null);
  const [csvMode, setCsvMode] = useState<'add' | 'replace'>('add');
  const [csvError, setCsvError] = useState<string | undefined>();

  async function submitCsv(event: FormEvent) {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setCsvError(t('csvChooseFile'));
      return;
    }
    setCsvError(undefined);
    if (
      csvMode === 'replace' &&
      !(await confirm(t('confirmReplace', { count: own.data?.length ?? 0 }), t('csvModeReplace')))
    )
      return;
    try {
      const result = await importCsv.mutateAsync({ csv: await file.text(), mode: csvMode });
      setBanner(notice(t, 'csvImported', { imported: result.imported, removed: result.removed }));
      if (fileRef.current) fileRef.current.value = '';
    } catch (error) {
      if (isAuthProblem(error)) return;
      setCsvError(describeError(error, t).text);
    }
    await Promise.all([utils.data.own.list.invalidate(), utils.data.sources.invalidate()]);
  }

  async function exportCsv() {
    try {
      const { csv } = await utils.data.own.exportCsv.fetch();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      link.download = 'own-places.csv';
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      fail(error);
    }
  }

  const kindLabel = (kind: Source['kind']) => t(kind === 'osm' ? 'kindOsm' : kind === 'live' ? 'kindLive' : 'kindOwn');
  const lat = Number(form.lat);
  const lon = Number(form.lon);
  const picked =
    NUMBER.test(form.lat.trim()) && NUMBER.test(form.lon.trim()) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180
      ? { lat, lon }
      : null;

  return (
    <section className="admin-page">
      <PageTitle>{t('navPlacesData')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />

      <section className="admin-panel" aria-labelledby="sources-title">
        <h2 id="sources-title">{t('sourcesHeading')}</h2>
        {sources.isPending && <p role="status">{t('loading')}</p>}
        {sources.data && (
          <>
            <p data-testid="index-totals">{t('totalPlaces', { count: sources.data.totals.places })}</p>
            <table className="admin-table admin-table-stack" data-testid="sources-table">
              <thead>
                <tr>
                  <th scope="col">{t('sourceName')}</th>
                  <th scope="col">{t('sourceFreshness')}</th>
                  <th scope="col">{t('sourcePlaces')}</th>
                  <th scope="col">{t('actions')}</th>
                </tr>
              </thead>
              <tbody>
                {sources.data.sources.map((source) => (
                  <tr key={source.id}>
                    <td data-label={t('sourceName')}>
                      <span className="admin-source-name">
                        {source.kind === 'osm' ? source.name : kindLabel(source.kind)}
                      </span>
                      <br />
                      <span className="admin-muted">{kindLabel(source.kind)}</span>
                    </td>
                    <td data-label={t('sourceFreshness')}>
                      {source.kind === 'osm' && (
                        <>
                          {dataDate(source.dataTimestamp)}
                          <br />
                        </>
                      )}
                      {source.importedAt !== null && (
                        <>
                          {t('importedAt', { date: formatDate(new Date(source.importedAt).toISOString()) })}
                          <br />
                        </>
                      )}
                      {source.kind === 'osm' && (
                        <>
                          {source.updatedAt !== null
                            ? t('updatedAt', { date: formatDate(new Date(source.updatedAt).toISOString()) })
                            : t('neverUpdated')}
                          <br />
                          {source.sequence !== null ? t('sequence', { sequence: source.sequence }) : t('noSequence')}
                        </>
                      )}
                    </td>
                    <td data-label={t('sourcePlaces')}>
                      <details>
                        <summary>{t('placesCount', { count: source.places })}</summary>
                        <ul className="admin-category-counts">
                          {CATEGORY_IDS.filter((id) => source.perCategory[id]).map((id) => (
                            <li key={id}>
                              {publicT(`category.${id}`)}: {count(source.perCategory[id])}
                            </li>
                          ))}
                        </ul>
                      </details>
                    </td>
                    <td data-label={t('actions')}>
                      <div className="admin-row-actions">
                        {source.kind === 'osm' && (
                          <>
                            <RowButton action={t('updateNow')} name={source.name} onClick={() => void update(source)} />
                            <RowButton
                              action={t('removeSource')}
                              name={source.name}
                              danger
                              onClick={() => void remove(source)}
                            />
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        <p role="status" aria-live="polite" data-testid="job-status" className="admin-job-status">
          {busy && job.data?.state === 'running' ? jobProgress(job.data, t) : busy ? t('jobRunning') : ''}
        </p>
      </section>

      <section className="admin-panel" aria-labelledby="import-title">
        <h2 id="import-title">{t('importFromUrl')}</h2>
        <form className="admin-form" onSubmit={importFromUrl} noValidate data-testid="import-form">
          <div className="admin-grid-2">
            <Field label={t('importUrl')} hint={t('importUrlHint')} error={urlError}>
              <input type="url" inputMode="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
            </Field>
            <Field label={t('sourceNameOptional')} hint={t('sourceNameHint')}>
              <input maxLength={200} value={sourceName} onChange={(e) => setSourceName(e.target.value)} />
            </Field>
          </div>
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={busy}>
              {t('startImport')}
            </button>
          </div>
        </form>
      </section>

      <section className="admin-panel" aria-labelledby="own-title">
        <h2 id="own-title">{editingId !== null ? t('editOwn') : t('addOwn')}</h2>
        <form ref={formRef} className="admin-form" onSubmit={submitOwn} noValidate data-testid="own-form">
          <div className="admin-grid-2">
            <Field label={t('ownName')} error={errors.name}>
              <input required maxLength={200} value={form.name} onChange={set('name')} />
            </Field>
            <Field label={t('ownCategory')} error={errors.category}>
              <select required value={form.category} onChange={set('category')}>
                <option value="">{t('chooseCategory')}</option>
                {CATEGORY_IDS.map((id) => (
                  <option key={id} value={id}>
                    {publicT(`category.${id}`)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t('ownLat')} error={errors.lat}>
              <input inputMode="decimal" required value={form.lat} onChange={set('lat')} />
            </Field>
            <Field label={t('ownLon')} error={errors.lon}>
              <input inputMode="decimal" required value={form.lon} onChange={set('lon')} />
            </Field>
          </div>
          <p className="admin-hint" id="pick-hint">
            {t('pickOnMap')}
          </p>
          <Suspense fallback={<div className="admin-position-map" />}>
            <PositionPicker
              label={t('mapLabel')}
              position={picked}
              onPick={(p) =>
                setForm((f) => ({
                  ...f,
                  lat: p.lat.toFixed(7).replace(/\.?0+$/, ''),
                  lon: p.lon.toFixed(7).replace(/\.?0+$/, ''),
                }))
              }
            />
          </Suspense>
          <div className="admin-grid-2">
            <Field label={t('ownAddress')} error={errors.address}>
              <input maxLength={300} value={form.address} onChange={set('address')} />
            </Field>
            <Field label={t('ownPhone')} error={errors.phone}>
              <input type="tel" maxLength={50} value={form.phone} onChange={set('phone')} />
            </Field>
            <Field label={t('ownWebsite')} hint={t('urlHint')} error={errors.website}>
              <input type="url" inputMode="url" maxLength={500} value={form.website} onChange={set('website')} />
            </Field>
            <Field
              label={t('ownHours')}
              hint={hoursTyped && hoursCheck.data?.valid ? t('hoursValid') : t('ownHoursHint')}
              error={errors.opening_hours ?? hoursProblem}
            >
              <input maxLength={500} value={form.opening_hours} onChange={set('opening_hours')} />
            </Field>
          </div>
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={saveOwn.isPending}>
              {saveOwn.isPending ? t('saving') : editingId !== null ? t('updateOwn') : t('saveOwn')}
            </button>
            {editingId !== null && (
              <button type="button" className="admin-button" onClick={cancelEdit}>
                {t('cancelEdit')}
              </button>
            )}
          </div>
        </form>
      </section>

      <section className="admin-panel" aria-labelledby="own-list-title">
        <h2 id="own-list-title">{t('ownHeading')}</h2>
        {own.data?.length === 0 && <p>{t('noOwnPlaces')}</p>}
        {!!own.data?.length && (
          <table className="admin-table admin-table-stack" data-testid="own-table">
            <thead>
              <tr>
                <th scope="col">{t('ownName')}</th>
                <th scope="col">{t('ownCategory')}</th>
                <th scope="col">{t('ownPosition')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {own.data.map((place) => (
                <tr key={place.id}>
                  <td data-label={t('ownName')}>
                    <a href={`/place/own/${place.id}`}>{place.name}</a>
                  </td>
                  <td data-label={t('ownCategory')}>{publicT(`category.${place.category}` as never)}</td>
                  <td data-label={t('ownPosition')}>
                    {place.lat}, {place.lon}
                  </td>
                  <td data-label={t('actions')}>
                    <div className="admin-row-actions">
                      <RowButton action={t('edit')} name={place.name} onClick={() => startEdit(place)} />
                      <RowButton action={t('delete')} name={place.name} danger onClick={() => void removeOwn(place)} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}

        <h3>{t('csvHeading')}</h3>
        <form className="admin-form" onSubmit={submitCsv} noValidate data-testid="csv-form">
          <p className="admin-hint">{t('csvHint')}</p>
          <Field label={t('csvFile')} error={csvError}>
            <input ref={fileRef} type="file" accept=".csv,text/csv" />
          </Field>
          <fieldset className="admin-fieldset admin-fieldset-inline">
            <legend>{t('csvMode')}</legend>
            <label>
              <input
                type="radio"
                name="csv-mode"
                value="add"
                checked={csvMode === 'add'}
                onChange={() => setCsvMode('add')}
              />{' '}
              {t('csvModeAdd')}
            </label>
            <label>
              <input
                type="radio"
                name="csv-mode"
                value="replace"
                checked={csvMode === 'replace'}
                onChange={() => setCsvMode('replace')}
              />{' '}
              {t('csvModeReplace')}
            </label>
          </fieldset>
          <div className="admin-actions">
            <button type="submit" className="admin-button admin-button-primary" disabled={importCsv.isPending}>
              {t('csvImport')}
            </button>
            <button type="button" className="admin-button" onClick={() => void exportCsv()}>
              {t('csvExport')}
            </button>
          </div>
        </form>
      </section>
      {dialog}
    </section>
  );
}
