// The admin's dictionaries: every language has every English key, with the same placeholders,
// translated (not copied), and every key is used by the admin code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminDictionaries, notice } from '../../../web/admin/i18n/index';

const en: Record<string, string> = adminDictionaries.en;
// `{count}` and `{count, plural, one {...} other {...}}` both name the placeholder count.
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]).sort();

/** Words that are the same as in English in that language. Anything else equal is a missed translation. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  es: ['planType_pro', 'planType_premium'],
  pt: ['adLink', 'planType_pro', 'planType_premium', 'ownLat', 'ownLon'],
  it: ['navDashboard', 'password', 'chartMax', 'adLink', 'uploadFile', 'planType_pro', 'planType_premium'],
  fr: [
    'navMessages',
    'actions',
    'chartMax',
    'messageDetail',
    'date',
    'messageBody',
    'planType',
    'planType_pro',
    'planType_premium',
    'distanceUnit_mi',
    'sourceName',
    'ownLat',
    'ownLon',
    'ownPosition',
  ],
};

describe('admin dictionaries', () => {
  for (const [lang, dictionary] of Object.entries(adminDictionaries)) {
    const texts: Record<string, string> = dictionary;
    it(`${lang}: the same keys as English, none empty, the same placeholders`, () => {
      expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${lang}.${key}`).not.toBe('');
        expect(placeholders(text), `${lang}.${key}`).toEqual(placeholders(en[key]));
      }
    });
    if (lang === 'en') continue;
    it(`${lang}: translated, not copied from English`, () => {
      const copied = Object.keys(en).filter((key) => texts[key] === en[key]);
      expect(copied.sort()).toEqual([...SAME_AS_ENGLISH[lang]].sort());
    });
  }

  it('holds the texts of the spec, word for word, in English', () => {
    const required = [
      'Loading...',
      'Invalid username or password',
      'Login failed. Please try again.',
      'Please login to access admin panel',
      'Unauthorized access',
      'Are you sure you want to delete this item?',
      'Are you sure you want to delete this message?',
      'User added successfully',
      'User deleted successfully',
      'Error occurred',
      'Ad added successfully',
      'Ad updated successfully',
      'Ad deleted successfully',
      'Plan added successfully',
      'Plan updated successfully',
      'Plan deleted successfully',
      'Error saving settings',
      'Error fetching settings',
      'General Settings',
      'Visual Editor',
      'Ads Management',
    ];
    const values = Object.values(en);
    for (const text of required) expect(values, text).toContain(text);
    expect(en.settingsUpdated).toContain('settings updated');
  });

  it('colours a banner green exactly when its English text says successfully', () => {
    const t = (key: keyof typeof en) => adminDictionaries.es[key as keyof typeof adminDictionaries.es];
    expect(notice(t, 'planAdded')).toEqual({ text: 'Plan añadido correctamente', success: true });
    expect(notice(t, 'errorSavingSettings')).toEqual({ text: 'Error al guardar la configuración', success: false });
    expect(notice(t, 'settingsUpdated').success).toBe(true);
    expect(notice(t, 'pleaseLogin').success).toBe(false);
  });

  it('has no key the admin code never uses', () => {
    const root = join(import.meta.dirname, '..', '..', '..', 'web', 'admin');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'i18n') walk(path);
        } else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(root);
    const source = files.map((file) => readFileSync(file, 'utf8')).join('\n');
    // Keys built from a value (`planType_${type}`) count as used through their prefix.
    const dynamicPrefixes = [...source.matchAll(/`(\w+_)\$\{/g)].map((m) => m[1]);
    const unused = Object.keys(en).filter(
      (key) => !source.includes(`'${key}'`) && !dynamicPrefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });
});
