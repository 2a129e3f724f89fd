// What the server needs to render each public page of web/pages.ts: a loader that reads its data
// through the same code as the REST reads (no HTTP), as react-query entries keyed as the page's
// components ask for them, and the page's head (head.ts). A kind of page without a loader here
// does not build.
import type { QueryKey } from '@tanstack/react-query';
import type { Db } from '../../db/index.js';
import type { Lang } from '../i18n.js';
import { isCategoryId } from '../places/model/category-ids.js';
import { CATEGORY_NAMES } from '../places/model/category-names.js';
import type { PlaceType } from '../places/store/types.js';
import { listAds } from '../procedures/ads.js';
import { listPlans } from '../procedures/plans.js';
import type { Services } from '../services.js';
import { translate } from '../../web/i18n/index.js';
import { ADS_QUERY_KEY, PLANS_QUERY_KEY } from '../../web/lib/content.js';
import { GROUPS_QUERY_KEY, groupPath, groupQueryKey } from '../../web/lib/groups.js';
import { pageTitle, type PageKind } from '../../web/pages.js';
import { placeQueryKey } from '../../web/public/PlacePage.js';
import { placeJsonLd } from './json-ld.js';
import type { GroupIndex } from './groups.js';
import type { PageHead } from './head.js';
import { pageUrl } from './head.js';

export interface PageDeps {
  db: Db;
  services: Services;
  /** the site's public origin (PUBLIC_ORIGIN's first) */
  origin: string;
}

export interface PageRequest {
  lang: Lang;
  /** the path's parameters (":type", ":id") */
  params: Record<string, string>;
  /** the site's title in the page's language */
  siteTitle: string;
  /** the towns' groups of places, for the pages that show them (usesGroups) */
  groups: GroupIndex | null;
}

export interface LoadedPage {
  status: 200 | 404;
  /** react-query entries beside the settings, which every page has */
  queries: [QueryKey, unknown][];
  head: PageHead;
  /** it shows what the clock changes (a place's status now): good for the minute it was made in */
  timely: boolean;
}

export interface PageLoader {
  /** whether what it shows comes from the places (its kept HTML then follows their changes) */
  usesPlaces: boolean;
  /** whether it shows the towns' groups of places (its kept HTML then follows their index) */
  usesGroups?: boolean;
  load(deps: PageDeps, request: PageRequest): Promise<LoadedPage>;
}

const PLACE_TYPES = new Set<string>(['node', 'way', 'relation', 'own']);

/** /privacy and /terms: their text comes with the settings, which every page has. */
function legalPage(
  rest: '/privacy' | '/terms',
  description: 'legal.privacyDescription' | 'legal.termsDescription',
): PageLoader {
  return {
    usesPlaces: false,
    async load(_deps, { lang, siteTitle }) {
      return {
        status: 200,
        queries: [],
        head: {
          title: pageTitle(rest, siteTitle, (key) => translate(lang, key)),
          description: translate(lang, description),
          rest,
          indexable: true,
        },
        timely: false,
      };
    },
  };
}

export const PAGE_LOADERS: Record<PageKind, PageLoader> = {
  home: {
    usesPlaces: true,
    usesGroups: true,
    async load({ db }, { lang, siteTitle, groups }) {
      const [ads, plans] = await Promise.all([listAds(db), listPlans(db)]);
      return {
        status: 200,
        queries: [
          [ADS_QUERY_KEY, ads],
          [PLANS_QUERY_KEY, plans],
          [GROUPS_QUERY_KEY, groups!.list()],
        ],
        head: { title: siteTitle, description: translate(lang, 'hero.subtitle'), rest: '/', indexable: true },
        timely: false,
      };
    },
  },
  contact: {
    usesPlaces: false,
    async load(_deps, { lang, siteTitle }) {
      return {
        status: 200,
        queries: [],
        head: {
          title: pageTitle('/contact', siteTitle, (key) => translate(lang, key)),
          description: translate(lang, 'contact.intro'),
          rest: '/contact',
          indexable: true,
        },
        timely: false,
      };
    },
  },
  plans: {
    usesPlaces: false,
    async load({ db }, { lang, siteTitle }) {
      return {
        status: 200,
        queries: [[PLANS_QUERY_KEY, await listPlans(db)]],
        head: {
          title: pageTitle('/plans', siteTitle, (key) => translate(lang, key)),
          description: translate(lang, 'plans.intro'),
          rest: '/plans',
          indexable: true,
        },
        timely: false,
      };
    },
  },
  privacy: legalPage('/privacy', 'legal.privacyDescription'),
  terms: legalPage('/terms', 'legal.termsDescription'),
  place: {
    usesPlaces: true,
    async load({ services, origin }, { lang, params, siteTitle }) {
      const id = `${params.type}/${params.id}`;
      const number = Number(params.id);
      const known = PLACE_TYPES.has(params.type) && /^[1-9]\d{0,15}$/.test(params.id) && Number.isSafeInteger(number);
      const read = known ? await services.places.getWithAddressParts(params.type as PlaceType, number, lang) : null;
      const rest = `/place/${id}`;
      if (!read) {
        return {
          status: 404,
          queries: [[placeQueryKey(id, lang), null]],
          head: {
            title: `${translate(lang, 'place.notFound')} · ${siteTitle}`,
            description: translate(lang, 'place.notFoundText'),
            rest,
            indexable: false,
          },
          timely: false,
        };
      }
      const { detail: place, parts } = read;
      const category = isCategoryId(place.category) ? CATEGORY_NAMES[place.category][lang] : '';
      const description = place.address
        ? translate(lang, 'place.description', { category, address: place.address })
        : translate(lang, 'place.descriptionNoAddress', { category });
      return {
        status: 200,
        queries: [[placeQueryKey(id, lang), place]],
        head: {
          title: `${place.name} · ${siteTitle}`,
          description,
          rest,
          indexable: true,
          jsonLd: placeJsonLd(place, pageUrl(origin, lang, rest), parts),
        },
        timely: true,
      };
    },
  },
  group: {
    usesPlaces: true,
    usesGroups: true,
    async load({ db }, { lang, params, siteTitle, groups }) {
      const group = await groups!.group(db, params.category, params.town, lang);
      const rest = groupPath(params.category, params.town);
      const queries: [QueryKey, unknown][] = [[groupQueryKey(params.category, params.town, lang), group]];
      if (!group) {
        return {
          status: 404,
          queries,
          head: {
            title: `${translate(lang, 'group.notFound')} · ${siteTitle}`,
            description: translate(lang, 'group.notFoundText'),
            rest,
            indexable: false,
          },
          timely: false,
        };
      }
      const names = { category: translate(lang, `category.${group.category}`), town: group.town.name };
      return {
        status: 200,
        queries,
        head: {
          title: `${translate(lang, 'group.title', names)} · ${siteTitle}`,
          description: translate(lang, 'group.description', names),
          rest,
          indexable: true,
        },
        timely: false,
      };
    },
  },
};
