// The admin's pure pieces: server errors in the admin's words, the reply links, plan descriptions.
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { describeError, isAuthProblem, isNetworkError } from '../../../web/admin/errors';
import { adminDictionaries, type TextKey } from '../../../web/admin/i18n/index';
import { mailtoUrl, replySubject, webmailComposeUrl } from '../../../web/admin/pages/Messages';
import { descriptionLists } from '../../../web/admin/pages/Plans';
import { attributionProblem, tileKeyProblem, tileTemplateProblem } from '../../../src/map/base-map';

const translator = (lang: keyof typeof adminDictionaries) => (key: TextKey, params?: Record<string, string | number>) =>
  adminDictionaries[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name]));

/** An error as the tRPC client builds it from the server's answer. */
const serverError = (message: string, code: string) =>
  TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: 400 } } });

describe("the base map's problems", () => {
  const problems = [
    tileTemplateProblem('http://tiles.example.org/{z}/{x}/{y}.png'),
    tileTemplateProblem('https://tiles.example.org/{z}/{x}.png'),
    tileTemplateProblem('https://tiles.example.org/{z}/{x}/{y}.png?{token}'),
    attributionProblem('<b>Tiles</b>'),
    tileKeyProblem('a&b'),
    'must be a whole number from 1 to 22',
  ] as string[];

  it('come in the five languages, each its own text', () => {
    expect(problems.every(Boolean)).toBe(true);
    for (const lang of Object.keys(adminDictionaries) as (keyof typeof adminDictionaries)[]) {
      const texts = problems.map((problem) =>
        describeError(serverError(`map_provider_url: ${problem}`, 'BAD_REQUEST'), translator(lang)),
      );
      expect(texts.every((described) => described.field === 'map_provider_url')).toBe(true);
      // none left in the server's English words
      expect(texts.filter((described, i) => described.text === problems[i])).toEqual([]);
      expect(new Set(texts.map((described) => described.text)).size).toBe(problems.length);
    }
  });
});

describe('a URL the server refused to fetch', () => {
  it('is said in the five languages, naming OUTBOUND_ALLOW', () => {
    const message =
      'url: 127.0.0.2 is a private or local address (loopback); only public addresses are fetched unless OUTBOUND_ALLOW names it';
    const texts = (Object.keys(adminDictionaries) as (keyof typeof adminDictionaries)[]).map((lang) =>
      describeError(serverError(message, 'BAD_REQUEST'), translator(lang)),
    );
    expect(texts.every((described) => described.field === 'url' && described.text.includes('OUTBOUND_ALLOW'))).toBe(
      true,
    );
    expect(new Set(texts.map((described) => described.text)).size).toBe(5);
    expect(texts[0].text).toMatch(/^This address is on a private or local network/);
  });
});

describe('describeError', () => {
  const t = translator('fr');
  it('translates whole messages of the server', () => {
    expect(describeError(serverError('You cannot delete your own account', 'CONFLICT'), t)).toEqual({
      text: 'Vous ne pouvez pas supprimer votre propre compte',
    });
    expect(describeError(serverError('The last administrator cannot be deleted', 'CONFLICT'), t).text).toBe(
      'Le dernier administrateur ne peut pas être supprimé',
    );
    expect(
      describeError(serverError('Too many login attempts. Try again in 42 seconds.', 'TOO_MANY_REQUESTS'), t).text,
    ).toBe('Trop de tentatives de connexion. Réessayez dans 42 secondes.');
    expect(describeError(serverError('Plan not found', 'NOT_FOUND'), t).text).toBe('Cet élément n’existe plus');
  });

  it('names the field of a "field: problem" message and translates the problem', () => {
    expect(describeError(serverError('username: "editor" is already taken', 'CONFLICT'), t)).toEqual({
      field: 'username',
      text: 'Ce nom d’utilisateur est déjà pris',
    });
    expect(describeError(serverError('password: Password is too common; choose another', 'BAD_REQUEST'), t)).toEqual({
      field: 'password',
      text: 'Ce mot de passe est trop courant ; choisissez-en un autre',
    });
    expect(describeError(serverError('link: must be an http(s) URL', 'BAD_REQUEST'), t).field).toBe('link');
    expect(describeError(serverError('media_url: a file or a media URL is required', 'BAD_REQUEST'), t).text).toBe(
      'Choisissez un fichier ou saisissez l’URL d’un média',
    );
    // Unknown problems are shown as they came rather than hidden.
    expect(describeError(serverError('name: something new', 'BAD_REQUEST'), t)).toEqual({
      field: 'name',
      text: 'something new',
    });
  });

  it('tells a network failure from an answer, and an auth problem from the rest', () => {
    const offline = TRPCClientError.from(new TypeError('Failed to fetch'));
    expect(isNetworkError(offline)).toBe(true);
    expect(describeError(offline, t).text).toBe('Le serveur est injoignable. Veuillez réessayer.');
    expect(isNetworkError(serverError('Invalid username or password', 'UNAUTHORIZED'))).toBe(false);
    expect(isAuthProblem(serverError('Please login to access admin panel', 'UNAUTHORIZED'))).toBe(true);
    expect(isAuthProblem(serverError('Please change your password first', 'FORBIDDEN'))).toBe(true);
    expect(isAuthProblem(serverError('You cannot delete your own account', 'CONFLICT'))).toBe(false);
  });
});

describe('reply links', () => {
  it('prefixes Re: once', () => {
    expect(replySubject('Opening hours')).toBe('Re: Opening hours');
    expect(replySubject('RE: Opening hours')).toBe('RE: Opening hours');
  });

  it('builds the webmail compose URL and the mailto link with everything encoded', () => {
    const body = '\n\n> a & b?\n> 100% sure';
    const compose = new URL(webmailComposeUrl('ana+shop@example.com', 'Re: Q&A #1', body));
    expect(compose.origin + compose.pathname).toBe('https://mail.google.com/mail/');
    expect(Object.fromEntries(compose.searchParams)).toEqual({
      view: 'cm',
      fs: '1',
      to: 'ana+shop@example.com',
      su: 'Re: Q&A #1',
      body,
    });
    const mailto = mailtoUrl('ana+shop@example.com', 'Re: Q&A #1', body);
    expect(mailto.startsWith('mailto:ana%2Bshop@example.com?')).toBe(true);
    const params = new URLSearchParams(mailto.split('?')[1]);
    expect(params.get('subject')).toBe('Re: Q&A #1');
    expect(params.get('body')).toBe(body);
    // mailto: wants %20 for spaces, never '+'.
    expect(mailto).not.toContain('+');
  });
});

describe('plan descriptions', () => {
  it('reads a structure, its JSON text, and plain text as lines of features', () => {
    expect(descriptionLists({ features: ['A'], languages: ['en'] })).toEqual({ features: ['A'], languages: ['en'] });
    expect(descriptionLists('{"features":["A","B"],"languages":["fr"]}')).toEqual({
      features: ['A', 'B'],
      languages: ['fr'],
    });
    expect(descriptionLists('First\n\n Second ')).toEqual({ features: ['First', 'Second'], languages: [] });
  });
});
