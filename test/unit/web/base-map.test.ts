// Which base map a page draws, from the settings and whether the site's own tiles are built.
import { describe, expect, it } from 'vitest';
import {
  chooseBaseLayer,
  DEFAULT_BASE_MAP,
  escapeHtml,
  normalizeBaseMap,
  OWN_TILES_URL,
} from '../../../web/lib/baseMap';
import { dictionaries } from '../../../web/i18n';

const OWN = { minzoom: 0, maxzoom: 14 };
const contributors = dictionaries.en['map.contributors'];
const OSM_LINK = '<a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

describe('the base map', () => {
  it("draws the site's own tiles when built, OpenStreetMap's standard tiles until then", () => {
    expect(chooseBaseLayer(DEFAULT_BASE_MAP, OWN, contributors)).toEqual({
      kind: 'own',
      url: OWN_TILES_URL,
      maxDataZoom: 14,
      attribution: `<a href="https://openmaptiles.org/">© OpenMapTiles</a> © ${OSM_LINK} contributors`,
    });
    expect(chooseBaseLayer(DEFAULT_BASE_MAP, null, contributors)).toEqual({
      kind: 'raster',
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      maxZoom: 19,
      attribution: `© ${OSM_LINK} contributors`,
      key: '',
    });
    expect(chooseBaseLayer({ ...DEFAULT_BASE_MAP, base: 'osm' }, OWN, contributors).kind).toBe('raster');
  });

  it('draws a provider with its key and its attribution as text', () => {
    const provider = normalizeBaseMap({
      map_base: 'provider',
      map_provider_url: 'https://tiles.example.org/{z}/{x}/{y}.png?key={key}',
      map_provider_attribution: '© Example & Co',
      map_provider_max_zoom: 20,
      map_provider_key: 'k1',
    });
    expect(chooseBaseLayer(provider, OWN, contributors)).toEqual({
      kind: 'raster',
      url: 'https://tiles.example.org/{z}/{x}/{y}.png?key={key}',
      maxZoom: 20,
      attribution: '© Example &#38; Co',
      key: 'k1',
    });
    expect(escapeHtml('<img src=x onerror=alert(1)>')).not.toMatch(/[<>]/);
  });

  it('says "contributors" in every language of the site', () => {
    const texts = Object.values(dictionaries).map((dictionary) => dictionary['map.contributors']);
    expect(new Set(texts).size).toBe(5);
    for (const text of texts) expect(text).toMatch(/^© .*\{osm\}/);
  });

  it('takes only what it knows from the settings', () => {
    expect(normalizeBaseMap({})).toEqual(DEFAULT_BASE_MAP);
    expect(normalizeBaseMap({ map_base: 'google', map_provider_max_zoom: 99 })).toEqual(DEFAULT_BASE_MAP);
  });
});
