// Settings, plans, messages, visits and ads through tRPC callers on a fresh database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminSession, buildTestApp, callerFor, expectTRPCError, type TestApp } from '../../helpers.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(() => t.close());

const admin = async () => callerFor(t, { session: await adminSession(t) });
const visitor = () => callerFor(t);

const rejects = expectTRPCError;

describe('settings', () => {
  it('answers the defaults', async () => {
    expect(await (await visitor()).settings.get()).toEqual({
      site_title: 'Find Services Near You',
      logo_url: '',
      primary_color: '#3B82F6',
      secondary_color: '#10B981',
      font_family: 'Inter, sans-serif',
      default_city: '',
      allowed_categories: [],
      contact_email: '',
      languages: ['en', 'es', 'pt', 'it', 'fr'],
      distance_unit: 'auto',
      map_base: 'own',
      map_provider_url: '',
      map_provider_attribution: '',
      map_provider_max_zoom: 19,
      map_provider_key: '',
      privacy_policy: { en: '', es: '', pt: '', it: '', fr: '' },
      terms_of_service: { en: '', es: '', pt: '', it: '', fr: '' },
      social_links: { facebook: '', x: '', instagram: '', linkedin: '' },
    });
  });

  it("keeps the legal pages' texts by language and the social links, each object whole", async () => {
    const caller = await admin();
    await caller.settings.save({
      privacy_policy: { en: '  We keep your messages.  ', fr: 'Nous gardons vos messages.' },
      terms_of_service: { es: 'Condiciones.' },
      social_links: { x: 'https://x.com/places', linkedin: '' },
    });
    expect(await (await visitor()).settings.get()).toMatchObject({
      privacy_policy: { en: 'We keep your messages.', es: '', pt: '', it: '', fr: 'Nous gardons vos messages.' },
      terms_of_service: { en: '', es: 'Condiciones.', pt: '', it: '', fr: '' },
      social_links: { facebook: '', x: 'https://x.com/places', instagram: '', linkedin: '' },
    });
    // A language left out of a save is emptied (its page shows the default text again).
    await caller.settings.save({ privacy_policy: { fr: 'Nouveau texte.' } });
    expect((await caller.settings.get()).privacy_policy).toEqual({
      en: '',
      es: '',
      pt: '',
      it: '',
      fr: 'Nouveau texte.',
    });
  });

  it('keeps a provider chosen as the base map, its key filled in by the browser', async () => {
    const caller = await admin();
    const provider = {
      map_base: 'provider' as const,
      map_provider_url: 'https://api.maptiler.com/maps/streets-v2/{z}/{x}/{y}.png?key={key}',
      map_provider_attribution: '© MapTiler © OpenStreetMap contributors',
      map_provider_max_zoom: 20,
      map_provider_key: 'Ab12-cd_34',
    };
    await caller.settings.save(provider);
    expect(await (await visitor()).settings.get()).toMatchObject(provider);
    // Back to OpenStreetMap's tiles: the provider's fields stay for a later switch.
    await caller.settings.save({ map_base: 'osm' });
    expect(await (await visitor()).settings.get()).toMatchObject({ ...provider, map_base: 'osm' });
  });

  it.each([
    [
      { map_provider_url: 'https://tiles.example.org/{z}/{x}.png' },
      /map_provider_url: must contain \{z\}, \{x\} and \{y\}/,
    ],
    [{ map_provider_url: 'http://tiles.example.org/{z}/{x}/{y}.png' }, /map_provider_url: must be an https URL/],
    [{ map_provider_url: 'javascript:alert(1)//{z}/{x}/{y}' }, /map_provider_url: must be an https URL/],
    [
      { map_provider_url: 'https://tiles.example.org/{z}/{x}/{y}.png?k={token}' },
      /map_provider_url: has an unknown placeholder \{token\}/,
    ],
    [
      { map_provider_attribution: '<a href="https://evil.example">Tiles</a>' },
      /map_provider_attribution: must be plain text/,
    ],
    [{ map_provider_attribution: '<img src=x onerror=alert(1)>' }, /map_provider_attribution: must be plain text/],
    [{ map_provider_max_zoom: 30 }, /map_provider_max_zoom: must be a whole number from 1 to 22/],
    [{ map_provider_key: 'a&b=c' }, /map_provider_key: may contain only/],
    [{ map_base: 'google' }, /map_base: must be one of: own, osm, provider/],
    [{ map_base: 'provider' }, /map_provider_url: is required/],
    [
      { map_base: 'provider', map_provider_url: 'https://t.example.org/{z}/{x}/{y}.png' },
      /map_provider_attribution: is required/,
    ],
    [
      {
        map_base: 'provider',
        map_provider_url: 'https://t.example.org/{z}/{x}/{y}.png?key={key}',
        map_provider_attribution: '© T',
      },
      /map_provider_key: is required/,
    ],
  ])('refuses the base map %o and saves nothing', async (input, message) => {
    const caller = await admin();
    const before = await caller.settings.get();
    await rejects(caller.settings.save({ ...input, site_title: 'Changed' } as never), 'BAD_REQUEST', message);
    expect(await caller.settings.get()).toEqual(before);
  });

  it('keeps the distance unit the admin chose', async () => {
    const caller = await admin();
    await caller.settings.save({ distance_unit: 'mi' });
    expect((await (await visitor()).settings.get()).distance_unit).toBe('mi');
  });

  it('accepts aliases and lists as JSON strings, answers snake_case and real lists', async () => {
    const caller = await admin();
    await caller.settings.save({
      siteTitle: 'Farmacias Cerca',
      fontFamily: 'Poppins, sans-serif',
      allowed_categories: '["pharmacy","hospital","pharmacy"]',
      languages: JSON.stringify(['es', 'en']),
      primary_color: '#112233',
      contact_email: 'hello@example.org',
      logo_url: 'https://example.org/logo.png',
    } as never);
    const settings = await caller.settings.get();
    expect(settings).toMatchObject({
      site_title: 'Farmacias Cerca',
      font_family: 'Poppins, sans-serif',
      allowed_categories: ['pharmacy', 'hospital'],
      languages: ['es', 'en'],
      primary_color: '#112233',
      contact_email: 'hello@example.org',
      logo_url: 'https://example.org/logo.png',
    });
    expect(settings).not.toHaveProperty('siteTitle');
  });

  it.each([
    [{ primary_color: 'blue' }, /primary_color: must be a colour/],
    [{ font_family: 'Comic Sans' }, /font_family: must be one of/],
    [{ logo_url: 'javascript:alert(1)' }, /logo_url/],
    [{ contact_email: 'not-an-email' }, /contact_email: must be an email/],
    [{ allowed_categories: ['pharmacy', 'casino'] }, /allowed_categories\.1: contains an unknown category/],
    [{ languages: ['de'] }, /languages\.0/],
    [{ site_title: '' }, /site_title: is required/],
    [{ distance_unit: 'furlongs' }, /distance_unit: must be 'auto', 'km' or 'mi'/],
    [{ privacy_policy: { de: 'Datenschutz' } }, /privacy_policy: Unrecognized key/],
    [{ terms_of_service: 'Just a string' }, /terms_of_service: must be an object of texts by language/],
    [{ social_links: { x: 'javascript:alert(1)' } }, /social_links\.x: must be an http\(s\) URL/],
    [{ social_links: { myspace: 'https://myspace.com/me' } }, /social_links: Unrecognized key/],
  ])('refuses %o and changes nothing', async (input, message) => {
    const caller = await admin();
    const before = await caller.settings.get();
    await rejects(caller.settings.save({ ...input, secondary_color: '#000000' } as never), 'BAD_REQUEST', message);
    expect(await caller.settings.get()).toEqual(before);
  });

  it('refuses a legal text past 4,000 characters, naming the page and the language', async () => {
    await rejects(
      (await admin()).settings.save({ privacy_policy: { en: 'x'.repeat(4001) } }),
      'BAD_REQUEST',
      /privacy_policy\.en: must be at most 4000 characters/,
    );
  });

  it('is saved by admins only', async () => {
    await rejects((await visitor()).settings.save({ site_title: 'x' }), 'UNAUTHORIZED');
  });
});

describe('plans', () => {
  const plan = {
    name: 'Pro',
    price: 19.99,
    type: 'pro' as const,
    description: 'All features',
    link: 'https://pay.example.org/pro',
  };

  it('creates, lists, updates and deletes', async () => {
    const caller = await admin();
    const { id } = await caller.plans.create(plan);
    expect(await caller.plans.list()).toEqual([{ id, ...plan }]);
    await caller.plans.update({ id, ...plan, price: 25, name: 'Pro+' });
    expect((await caller.plans.list())[0]).toMatchObject({ name: 'Pro+', price: 25 });
    await caller.plans.delete({ id });
    expect(await caller.plans.list()).toEqual([]);
    await rejects(caller.plans.delete({ id }), 'NOT_FOUND');
  });

  it('keeps a description in the form it was given', async () => {
    const caller = await admin();
    const structure = { features: ['Unlimited searches', 'Priority support'], languages: ['en', 'es'] };
    const asString = JSON.stringify(structure);
    const a = await caller.plans.create({ ...plan, description: structure });
    const b = await caller.plans.create({ ...plan, description: asString });
    const list = await caller.plans.list();
    expect(list.find((p) => p.id === a.id)?.description).toEqual(structure);
    expect(list.find((p) => p.id === b.id)?.description).toBe(asString);
  });

  it.each([
    [{ name: '' }, /name: is required/],
    [{ name: 'x'.repeat(101) }, /name: must be at most 100/],
    [{ price: 1.234 }, /price: must have at most two decimals/],
    [{ price: -1 }, /price: must be at least 0/],
    [{ price: 1_000_001 }, /price: must be at most 1000000/],
    [{ type: 'gold' }, /type/],
    [{ link: 'ftp://x.org' }, /link: must be an http\(s\) URL/],
    [{ description: '{"features": "not a list"}' }, /description/],
  ])('refuses %o and creates nothing', async (change, message) => {
    const caller = await admin();
    await rejects(caller.plans.create({ ...plan, ...change } as never), 'BAD_REQUEST', message);
    expect(await caller.plans.list()).toEqual([]);
  });
});

describe('messages', () => {
  const message = { name: ' Ana ', email: 'ana@example.org', subject: 'Hello', body: 'A question' };

  it('stores a trimmed message unread with its date; admins mark and delete', async () => {
    const sent = await (await visitor()).messages.send(message);
    expect(sent).toMatchObject({ success: true, message: 'Message sent successfully' });
    const caller = await admin();
    const [stored] = await caller.messages.list();
    expect(stored).toMatchObject({ id: sent.id, name: 'Ana', status: 'unread' });
    expect(Date.parse(stored.date)).not.toBeNaN();
    await caller.messages.setStatus({ id: sent.id, status: 'read' });
    expect((await caller.messages.list())[0].status).toBe('read');
    await caller.messages.setStatus({ id: sent.id, status: 'unread' });
    expect((await caller.messages.list())[0].status).toBe('unread');
    await caller.messages.delete({ id: sent.id });
    expect(await caller.messages.list()).toEqual([]);
  });

  it.each([
    [{ name: '   ' }, /name: is required/],
    [{ email: 'nope' }, /email: must be a valid email/],
    [{ subject: 'x'.repeat(201) }, /subject: must be at most 200/],
    [{ body: 'x'.repeat(5001) }, /body: must be at most 5000/],
  ])('refuses %o and stores nothing', async (change, pattern) => {
    await rejects((await visitor()).messages.send({ ...message, ...change }), 'BAD_REQUEST', pattern);
    expect(await (await admin()).messages.list()).toEqual([]);
  });

  it('is listed by admins only', async () => {
    await rejects((await visitor()).messages.list(), 'UNAUTHORIZED');
  });
});

describe('visits', () => {
  it('counts, resets the current count and keeps a count per day', async () => {
    const caller = await visitor();
    await caller.visits.count();
    await caller.visits.count();
    t.clock.advance(86_400_000);
    await caller.visits.count();
    const adminCaller = await admin();
    expect(await adminCaller.visits.get()).toEqual({ current_visits: 3, total_visits: 3, last_reset: null });
    await adminCaller.visits.reset();
    const after = await adminCaller.visits.get();
    expect(after).toMatchObject({ current_visits: 0, total_visits: 3 });
    expect(after.last_reset).toBe(new Date(t.clock.now()).toISOString());
    const daily = await adminCaller.visits.daily({ days: 30 });
    expect(daily).toHaveLength(30);
    expect(daily.slice(-2).map((d) => d.count)).toEqual([2, 1]);
  });
});

describe('ads and videos', () => {
  it('creates carousel and static ads with the default interval, toggles the carousel', async () => {
    const caller = await admin();
    const a = await caller.ads.create({
      type: 'carousel',
      title: 'Sale',
      link: 'https://shop.example.org',
      media_url: 'https://cdn.example.org/a.jpg',
    });
    await caller.ads.create({ type: 'static', media_url: 'https://cdn.example.org/b.png' });
    let ads = await (await visitor()).ads.list();
    expect(ads.carousel).toEqual([
      {
        id: a.id,
        title: 'Sale',
        link: 'https://shop.example.org',
        media: 'https://cdn.example.org/a.jpg',
        interval: 5000,
      },
    ]);
    expect(ads.static).toHaveLength(1);
    expect(ads.carousel_enabled).toBe(1);
    await caller.ads.setCarouselEnabled({ enabled: 0 });
    ads = await caller.ads.list();
    expect(ads.carousel_enabled).toBe(0);
  });

  it('refuses media that is neither http(s) nor an upload, and never a missing one', async () => {
    const caller = await admin();
    await rejects(caller.ads.create({ type: 'static', media_url: 'javascript:alert(1)' }), 'BAD_REQUEST', /media_url/);
    await rejects(caller.ads.create({ type: 'static', media_url: '/etc/passwd' }), 'BAD_REQUEST', /media_url/);
    await rejects(caller.ads.create({ type: 'static' } as never), 'BAD_REQUEST', /media_url/);
    expect((await caller.ads.list()).static).toEqual([]);
  });

  it('toggles and updates background videos', async () => {
    const caller = await admin();
    const { id } = await caller.videos.create({
      title: 'Intro',
      link: '',
      enabled: 1,
      media_url: 'https://cdn.example.org/v.mp4',
    });
    await caller.videos.toggle({ id, enabled: 0 });
    expect((await caller.ads.list()).background_videos[0]).toMatchObject({ id, enabled: 0, title: 'Intro' });
    await caller.videos.update({ id, enabled: 1 });
    expect((await caller.ads.list()).background_videos[0].enabled).toBe(1);
    await caller.videos.delete({ id });
    await rejects(caller.videos.toggle({ id, enabled: 1 }), 'NOT_FOUND');
  });

  it('writes the audit log with who did what', async () => {
    const caller = await admin();
    await caller.ads.create({ type: 'static', media_url: 'https://cdn.example.org/b.png' });
    const log = await t.handle.db.selectFrom('audit_log').selectAll().where('action', '=', 'ads.create').execute();
    expect(log).toHaveLength(1);
    expect(log[0].username).toBe('admin');
  });
});
