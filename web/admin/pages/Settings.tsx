// Settings: the general settings (title, logo, contact email, default city, the categories
// and languages offered), the Visual Editor (colours, font) with a live preview of the home
// page's hero as it will look, the base map, the Privacy Policy and Terms texts by language and
// the footer's social links.
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { MAP_BASES, attributionProblem, tileKeyProblem, tileTemplateProblem } from '../../../src/map/base-map';
import { ADMIN_CATEGORY_IDS } from '../../../src/places/model/category-ids';
import { dictionaries as publicDictionaries, useT as usePublicT } from '../../i18n';
import { formatNumber } from '../../lib/format';
import { LANGUAGE_NAMES, LANGUAGES, useLanguage, type Lang } from '../../lib/i18n';
import { Hero } from '../../public/Hero';
import { describeError, describeProblem, isAuthProblem } from '../errors';
import { normalizeBaseMap, type OwnTiles } from '../../lib/baseMap';
import { useOwnTiles } from '../../lib/ownTiles';
import { notice, useT, type Notice, type TextKey } from '../i18n';
import { trpc, type RouterOutputs } from '../trpc';
import { Banner, Field, focusFirstInvalid, PageTitle } from '../ui';
import { isHttpUrl } from './Plans';
import { usePublicRefresh } from '../usePublicRefresh';
import { FONTS } from '../../../src/fonts';
import {
  LEGAL_TEXT_MAX,
  SOCIAL_NETWORK_NAMES,
  SOCIAL_NETWORKS,
  type Settings,
  type SocialNetwork,
} from '../../../src/site-settings';

const BaseMapPreview = lazy(() => import('./BaseMapPreview'));

type Font = (typeof FONTS)[number];
type AdminCategory = (typeof ADMIN_CATEGORY_IDS)[number];

/** The settings as the form holds them: a known font, and the zoom as typed (checked when saved). */
type SettingsForm = Omit<Settings, 'font_family' | 'map_provider_max_zoom'> & {
  font_family: Font;
  map_provider_max_zoom: string;
};
type FieldName = keyof SettingsForm;
/** Keyed by field, or `social_links.x` for a part of one. */
type FormErrors = Partial<Record<FieldName | `social_links.${SocialNetwork}`, string>>;

type LegalField = 'privacy_policy' | 'terms_of_service';

const COLOUR = /^#[0-9a-fA-F]{6}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function fromSettings(settings: RouterOutputs['settings']['get']): SettingsForm {
  return {
    ...settings,
    primary_color: settings.primary_color.toUpperCase(),
    secondary_color: settings.secondary_color.toUpperCase(),
    font_family: (FONTS as readonly string[]).includes(settings.font_family)
      ? (settings.font_family as Font)
      : FONTS[0],
    map_provider_max_zoom: String(settings.map_provider_max_zoom),
  };
}

const ZOOM = /^([1-9]|1\d|2[0-2])$/;

/** Where the preview looks: the middle of the site's own tiles, else central London. */
const previewCenter = (ownTiles: OwnTiles | null | undefined): [number, number] =>
  ownTiles?.center ? [ownTiles.center[1], ownTiles.center[0]] : [51.5072, -0.1276];

export function Settings() {
  const t = useT();
  const publicT = usePublicT();
  const utils = trpc.useUtils();
  const refreshPublic = usePublicRefresh();
  const settings = trpc.settings.get.useQuery();
  const save = trpc.settings.save.useMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [banner, setBanner] = useState<Notice | null>(null);
  const [keyShown, setKeyShown] = useState(false);
  const [legalLang, setLegalLang] = useState<Lang>('en');
  const { lang } = useLanguage();
  const ownTiles = useOwnTiles().data;

  // The form starts from the saved settings once; later refetches do not overwrite edits.
  useEffect(() => {
    if (settings.data && !form) setForm(fromSettings(settings.data));
  }, [settings.data, form]);
  useEffect(() => {
    if (settings.isError && !isAuthProblem(settings.error)) setBanner(notice(t, 'errorFetchingSettings'));
  }, [settings.isError, settings.error, t]);

  if (!form) {
    return (
      <section className="admin-page">
        <PageTitle>{t('navSettings')}</PageTitle>
        <Banner notice={banner} />
        {!settings.isError && <p role="status">{t('loading')}</p>}
      </section>
    );
  }

  const set = (field: FieldName) => (event: { target: { value: string } }) =>
    setForm((f) => (f ? { ...f, [field]: event.target.value } : f));
  const toggleIn = (field: 'allowed_categories' | 'languages', value: string, on: boolean) =>
    setForm((f) => {
      if (!f) return f;
      const rest = f[field].filter((item) => item !== value);
      return { ...f, [field]: on ? [...rest, value] : rest };
    });

  function validate(values: SettingsForm): FormErrors {
    const problems: FormErrors = {};
    if (!values.site_title.trim()) problems.site_title = t('fieldRequired');
    if (values.logo_url.trim() && !isHttpUrl(values.logo_url.trim())) problems.logo_url = t('invalidUrl');
    if (values.contact_email.trim() && !EMAIL.test(values.contact_email.trim()))
      problems.contact_email = t('invalidEmail');
    if (values.languages.length === 0) problems.languages = t('languagesRequired');
    if (!COLOUR.test(values.primary_color)) problems.primary_color = t('invalidColour');
    if (!COLOUR.test(values.secondary_color)) problems.secondary_color = t('invalidColour');
    for (const network of SOCIAL_NETWORKS) {
      const link = values.social_links[network].trim();
      if (link && !isHttpUrl(link)) problems[`social_links.${network}`] = t('invalidUrl');
    }
    // The provider's fields are shown, checked and sent only while a provider is chosen.
    if (values.map_base !== 'provider') return problems;
    const url = values.map_provider_url.trim();
    const urlProblem = url ? tileTemplateProblem(url) : 'is required';
    if (urlProblem) problems.map_provider_url = describeProblem(urlProblem, t);
    const attributionText = values.map_provider_attribution.trim();
    const attribution = attributionText ? attributionProblem(attributionText) : 'is required';
    if (attribution) problems.map_provider_attribution = describeProblem(attribution, t);
    if (!ZOOM.test(values.map_provider_max_zoom.trim())) problems.map_provider_max_zoom = t('zoomRange');
    const keyText = values.map_provider_key.trim();
    const key = tileKeyProblem(keyText) ?? (url.includes('{key}') && !keyText ? 'is required' : null);
    if (key) problems.map_provider_key = describeProblem(key, t);
    return problems;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form) return;
    const problems = validate(form);
    setErrors(problems);
    if (Object.keys(problems).length) {
      setBanner(notice(t, 'errorSavingSettings'));
      focusFirstInvalid(formRef.current);
      return;
    }
    const { map_provider_url, map_provider_attribution, map_provider_max_zoom, map_provider_key, ...general } = form;
    try {
      await save.mutateAsync({
        ...general,
        site_title: form.site_title.trim(),
        logo_url: form.logo_url.trim(),
        contact_email: form.contact_email.trim(),
        default_city: form.default_city.trim(),
        // Kept in the order the checkboxes show them.
        allowed_categories: ADMIN_CATEGORY_IDS.filter((id) => form.allowed_categories.includes(id)),
        languages: LANGUAGES.filter((lang) => form.languages.includes(lang)),
        social_links: Object.fromEntries(
          SOCIAL_NETWORKS.map((network) => [network, form.social_links[network].trim()]),
        ) as Record<SocialNetwork, string>,
        ...(form.map_base === 'provider'
          ? {
              map_provider_url: map_provider_url.trim(),
              map_provider_attribution: map_provider_attribution.trim(),
              map_provider_max_zoom: Number(map_provider_max_zoom.trim()),
              map_provider_key: map_provider_key.trim(),
            }
          : {}),
      });
    } catch (error) {
      if (isAuthProblem(error)) return;
      const described = describeError(error, t);
      if (described.field && (described.field in form || described.field.startsWith('social_links.'))) {
        setErrors({ [described.field]: described.text });
        focusFirstInvalid(formRef.current);
      }
      setBanner(notice(t, 'errorSavingSettings'));
      return;
    }
    setBanner(notice(t, 'settingsUpdated'));
    await utils.settings.get.invalidate();
    refreshPublic();
  }

  const colourField = (field: 'primary_color' | 'secondary_color', label: TextKey, hexLabel: TextKey) => (
    <div className="admin-colour">
      <Field label={t(label)}>
        <input
          type="color"
          value={COLOUR.test(form[field]) ? form[field].toLowerCase() : '#000000'}
          onChange={(event) => setForm((f) => (f ? { ...f, [field]: event.target.value.toUpperCase() } : f))}
        />
      </Field>
      <Field label={t(hexLabel)} hint={t('colourHint')} error={errors[field]}>
        <input value={form[field]} maxLength={7} spellCheck={false} onChange={set(field)} />
      </Field>
    </div>
  );

  const allChecked = ADMIN_CATEGORY_IDS.every((id) => form.allowed_categories.includes(id));

  const setLegal = (field: LegalField, text: string) =>
    setForm((f) => (f ? { ...f, [field]: { ...f[field], [legalLang]: text } } : f));
  const legalField = (
    field: LegalField,
    label: TextKey,
    defaultKey: 'legal.privacyDefault' | 'legal.termsDefault',
    path: string,
  ) => (
    <div className="admin-legal-text">
      <Field
        label={`${t(label)} (${LANGUAGE_NAMES[legalLang]})`}
        hint={t('legalTextHint', {
          used: formatNumber(form[field][legalLang].length, lang),
          max: formatNumber(LEGAL_TEXT_MAX, lang),
        })}
        error={errors[field]}
      >
        <textarea
          name={`${field}_${legalLang}`}
          lang={legalLang}
          rows={8}
          maxLength={LEGAL_TEXT_MAX}
          value={form[field][legalLang]}
          onChange={(event) => setLegal(field, event.target.value)}
        />
      </Field>
      <div className="admin-actions">
        <button
          type="button"
          className="admin-button admin-button-small"
          onClick={() => setLegal(field, publicDictionaries[legalLang][defaultKey])}
        >
          {t('useDefaultText')}
        </button>
        <a href={path} target="_blank" rel="noopener noreferrer">
          {t('openPage')}
          <span className="visually-hidden"> ({t(label)})</span>
        </a>
      </div>
    </div>
  );

  return (
    <section className="admin-page">
      <PageTitle>{t('navSettings')}</PageTitle>
      <Banner notice={banner} onDismiss={() => setBanner(null)} />
      <form ref={formRef} className="admin-form" onSubmit={submit} noValidate data-testid="settings-form">
        <section className="admin-panel" aria-labelledby="general-settings">
          <h2 id="general-settings">{t('generalSettings')}</h2>
          <div className="admin-grid-2">
            <Field label={t('siteTitle')} error={errors.site_title}>
              <input name="site_title" required maxLength={100} value={form.site_title} onChange={set('site_title')} />
            </Field>
            <Field label={t('logoUrl')} hint={t('urlHintOptional')} error={errors.logo_url}>
              <input name="logo_url" type="url" inputMode="url" value={form.logo_url} onChange={set('logo_url')} />
            </Field>
            <Field label={t('contactEmail')} error={errors.contact_email}>
              <input
                name="contact_email"
                type="email"
                autoComplete="email"
                value={form.contact_email}
                onChange={set('contact_email')}
              />
            </Field>
            <Field label={t('defaultCity')} hint={t('defaultCityHint')} error={errors.default_city}>
              <input name="default_city" maxLength={100} value={form.default_city} onChange={set('default_city')} />
            </Field>
            <Field label={t('distanceUnit')} hint={t('distanceUnitHint')} error={errors.distance_unit}>
              <select name="distance_unit" value={form.distance_unit} onChange={set('distance_unit')}>
                {(['auto', 'km', 'mi'] as const).map((unit) => (
                  <option key={unit} value={unit}>
                    {t(`distanceUnit_${unit}`)}
                  </option>
                ))}
              </select>
            </Field>
          </div>

          <fieldset className="admin-fieldset" aria-describedby="categories-hint">
            <legend>{t('allowedCategories')}</legend>
            <p id="categories-hint" className="admin-hint">
              {t('allowedCategoriesHint')}
            </p>
            <div className="admin-actions">
              <button
                type="button"
                className="admin-button admin-button-small"
                onClick={() =>
                  setForm((f) => (f ? { ...f, allowed_categories: allChecked ? [] : [...ADMIN_CATEGORY_IDS] } : f))
                }
              >
                {allChecked ? t('clearAll') : t('selectAll')}
              </button>
            </div>
            <div className="admin-checkbox-grid" data-testid="categories">
              {ADMIN_CATEGORY_IDS.map((id: AdminCategory) => (
                <div className="admin-check" key={id}>
                  <input
                    id={`category-${id}`}
                    type="checkbox"
                    checked={form.allowed_categories.includes(id)}
                    onChange={(event) => toggleIn('allowed_categories', id, event.target.checked)}
                  />
                  <label htmlFor={`category-${id}`}>{publicT(`category.${id}`)}</label>
                </div>
              ))}
            </div>
          </fieldset>

          <fieldset
            className="admin-fieldset"
            aria-describedby={errors.languages ? 'languages-error' : 'languages-hint'}
          >
            <legend>{t('siteLanguages')}</legend>
            <p id="languages-hint" className="admin-hint">
              {t('siteLanguagesHint')}
            </p>
            <div className="admin-checkbox-grid">
              {LANGUAGES.map((lang: Lang) => (
                <div className="admin-check" key={lang}>
                  <input
                    id={`language-${lang}`}
                    type="checkbox"
                    checked={form.languages.includes(lang)}
                    aria-invalid={errors.languages ? true : undefined}
                    onChange={(event) => toggleIn('languages', lang, event.target.checked)}
                  />
                  <label htmlFor={`language-${lang}`} lang={lang}>
                    {LANGUAGE_NAMES[lang]}
                  </label>
                </div>
              ))}
            </div>
            {errors.languages && (
              <small id="languages-error" className="admin-field-error">
                {errors.languages}
              </small>
            )}
          </fieldset>
        </section>

        <section className="admin-panel" aria-labelledby="visual-editor">
          <h2 id="visual-editor">{t('visualEditor')}</h2>
          <div className="admin-visual-editor">
            <div className="admin-visual-controls">
              {colourField('primary_color', 'primaryColor', 'primaryColorHex')}
              {colourField('secondary_color', 'secondaryColor', 'secondaryColorHex')}
              <Field label={t('fontFamily')} error={errors.font_family}>
                <select value={form.font_family} onChange={set('font_family')}>
                  {FONTS.map((font) => (
                    <option key={font} value={font}>
                      {font.split(',')[0]}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <section className="admin-preview" aria-labelledby="live-preview" data-testid="hero-preview">
              <h3 id="live-preview">{t('livePreview')}</h3>
              <div className="admin-preview-frame">
                <Hero
                  title={form.site_title.trim() || publicT('hero.defaultTitle')}
                  subtitle={publicT('hero.subtitle')}
                  primaryColor={
                    COLOUR.test(form.primary_color) ? form.primary_color : (settings.data?.primary_color ?? '#3B82F6')
                  }
                  secondaryColor={
                    COLOUR.test(form.secondary_color)
                      ? form.secondary_color
                      : (settings.data?.secondary_color ?? '#10B981')
                  }
                  fontFamily={form.font_family}
                  logoUrl={isHttpUrl(form.logo_url.trim()) ? form.logo_url.trim() : undefined}
                />
              </div>
            </section>
          </div>
        </section>

        <section className="admin-panel" aria-labelledby="base-map">
          <h2 id="base-map">{t('baseMap')}</h2>
          <div className="admin-visual-editor">
            <div className="admin-visual-controls">
              <fieldset className="admin-fieldset" aria-describedby="base-map-hint">
                <legend>{t('baseMap')}</legend>
                <p id="base-map-hint" className="admin-hint">
                  {t('baseMapHint')}
                </p>
                {MAP_BASES.map((base) => (
                  <div className="admin-check" key={base}>
                    <input
                      id={`map-base-${base}`}
                      type="radio"
                      name="map_base"
                      value={base}
                      checked={form.map_base === base}
                      onChange={() => setForm((f) => (f ? { ...f, map_base: base } : f))}
                    />
                    <label htmlFor={`map-base-${base}`}>{t(`baseMap_${base}`)}</label>
                  </div>
                ))}
                {ownTiles !== undefined && (
                  <p className="admin-hint" data-testid="own-tiles-state">
                    {ownTiles ? t('ownTilesBuilt') : t('ownTilesMissing')}
                  </p>
                )}
              </fieldset>
              {form.map_base === 'provider' && (
                <>
                  <Field label={t('providerUrl')} hint={t('providerUrlHint')} error={errors.map_provider_url}>
                    <input
                      name="map_provider_url"
                      inputMode="url"
                      spellCheck={false}
                      maxLength={2000}
                      value={form.map_provider_url}
                      onChange={set('map_provider_url')}
                    />
                  </Field>
                  <Field label={t('providerAttribution')} error={errors.map_provider_attribution}>
                    <input
                      name="map_provider_attribution"
                      maxLength={300}
                      value={form.map_provider_attribution}
                      onChange={set('map_provider_attribution')}
                    />
                  </Field>
                  <Field label={t('providerMaxZoom')} error={errors.map_provider_max_zoom}>
                    <input
                      name="map_provider_max_zoom"
                      type="number"
                      min={1}
                      max={22}
                      step={1}
                      value={form.map_provider_max_zoom}
                      onChange={set('map_provider_max_zoom')}
                    />
                  </Field>
                  <Field label={t('providerKey')} hint={t('providerKeyHint')} error={errors.map_provider_key}>
                    <input
                      name="map_provider_key"
                      type={keyShown ? 'text' : 'password'}
                      autoComplete="off"
                      spellCheck={false}
                      maxLength={200}
                      value={form.map_provider_key}
                      onChange={set('map_provider_key')}
                    />
                  </Field>
                  <div className="admin-check">
                    <input
                      id="show-map-key"
                      type="checkbox"
                      checked={keyShown}
                      onChange={(event) => setKeyShown(event.target.checked)}
                    />
                    <label htmlFor="show-map-key">{t('showKey')}</label>
                  </div>
                </>
              )}
            </div>
            <section className="admin-preview" aria-labelledby="map-preview" data-testid="map-preview">
              <h3 id="map-preview">{t('mapPreview')}</h3>
              <Suspense fallback={<p role="status">{t('loading')}</p>}>
                <BaseMapPreview
                  // Only a template the checks accept is previewed: a half-typed one would ask for broken addresses.
                  choice={normalizeBaseMap({
                    ...form,
                    map_provider_url: tileTemplateProblem(form.map_provider_url.trim()) ? '' : form.map_provider_url,
                    map_provider_attribution: attributionProblem(form.map_provider_attribution)
                      ? ''
                      : form.map_provider_attribution,
                    map_provider_key: tileKeyProblem(form.map_provider_key.trim()) ? '' : form.map_provider_key,
                  })}
                  center={previewCenter(ownTiles)}
                />
              </Suspense>
            </section>
          </div>
        </section>

        <section className="admin-panel" aria-labelledby="legal-pages">
          <h2 id="legal-pages">{t('legalPages')}</h2>
          <p className="admin-hint">{t('legalPagesHint')}</p>
          <Field label={t('legalLanguage')}>
            <select
              name="legal_language"
              value={legalLang}
              onChange={(event) => setLegalLang(event.target.value as Lang)}
            >
              {LANGUAGES.map((lang) => (
                <option key={lang} value={lang} lang={lang}>
                  {LANGUAGE_NAMES[lang]}
                </option>
              ))}
            </select>
          </Field>
          <div className="admin-grid-2">
            {legalField('privacy_policy', 'privacyText', 'legal.privacyDefault', '/privacy')}
            {legalField('terms_of_service', 'termsText', 'legal.termsDefault', '/terms')}
          </div>
        </section>

        <section className="admin-panel" aria-labelledby="social-links">
          <h2 id="social-links">{t('socialLinks')}</h2>
          <p className="admin-hint">{t('socialLinksHint')}</p>
          <div className="admin-grid-2">
            {SOCIAL_NETWORKS.map((network) => (
              <Field
                key={network}
                label={t('socialLink', { network: SOCIAL_NETWORK_NAMES[network] })}
                hint={t('urlHintOptional')}
                error={errors[`social_links.${network}`]}
              >
                <input
                  name={`social_${network}`}
                  type="url"
                  inputMode="url"
                  value={form.social_links[network]}
                  onChange={(event) => {
                    const link = event.target.value;
                    setForm((f) => (f ? { ...f, social_links: { ...f.social_links, [network]: link } } : f));
                  }}
                />
              </Field>
            ))}
          </div>
        </section>

        <div className="admin-actions">
          <button type="submit" className="admin-button admin-button-primary" disabled={save.isPending}>
            {save.isPending ? t('saving') : t('saveSettings')}
          </button>
        </div>
      </form>
    </section>
  );
}
