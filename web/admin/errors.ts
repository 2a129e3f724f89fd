// The server answers in English ('field: problem' for bad input); the admin shows its errors in
// the admin's language. Known messages are translated; an unknown one is shown as it came.
import { TRPCClientError } from '@trpc/client';
import type { TextKey, Translate } from './i18n';
import { errorCode } from './trpc';

/** Whole messages the procedures send, by their English text. */
const MESSAGES: Record<string, TextKey> = {
  'Invalid username or password': 'invalidCredentials',
  'Please login to access admin panel': 'pleaseLogin',
  'Please change your password first': 'changePasswordFirst',
  'You cannot delete your own account': 'cannotDeleteSelf',
  'The last administrator cannot be deleted': 'cannotDeleteLast',
  'Internal server error': 'errorOccurred',
  'Unauthorized access': 'unauthorizedAccess',
};

const REFUSED_ADDRESS = / is a private or local address /;

/** Whether the server refused to fetch a URL because its host is a private or local address. */
export function isRefusedAddress(message: string): boolean {
  return REFUSED_ADDRESS.test(message);
}

/** The problem part of 'field: problem'. */
const PROBLEMS: [RegExp, TextKey][] = [
  [/^is required$/, 'fieldRequired'],
  [/^must be an http\(s\) URL$/, 'invalidUrl'],
  [REFUSED_ADDRESS, 'urlRefused'],
  [/^must be origins such as https:\/\/example\.org/, 'keyOriginsInvalid'],
  [/^must be a whole number from 1 to 100000000$/, 'keyLimitInvalid'],
  [/^must be an http\(s\) URL or an \/uploads\/ path$/, 'invalidMediaUrl'],
  [/email/, 'invalidEmail'],
  [/^must be 3 to 32 characters/, 'usernameRule'],
  [/is already taken$/, 'usernameTaken'],
  [/^Password must be at least/, 'passwordTooShort'],
  [/^Password must be at most/, 'passwordTooLong'],
  [/^Password is too common/, 'passwordTooCommon'],
  [/^is not correct$/, 'currentPasswordWrong'],
  [/^must differ from the current password$/, 'passwordMustDiffer'],
  [/^a file or a media URL is required$/, 'mediaRequired'],
  [/^must be at (least 1000|most 600000) ms$|^must be whole milliseconds$/, 'intervalRange'],
  [/^must have at most two decimals$/, 'priceDecimals'],
  [/^must be a number$|^must be at (least 0|most 1000000)$/, 'priceInvalid'],
  [/^must be a colour/, 'invalidColour'],
  [/^must be at most \d+ characters$/, 'tooLong'],
  [/^must be an https URL$/, 'tileUrlHttps'],
  [/^must contain \{z\}, \{x\} and \{y\}$/, 'tileUrlPlaceholders'],
  [/^has an unknown placeholder/, 'tileUrlUnknownPlaceholder'],
  [/^must be plain text, without markup$/, 'attributionMarkup'],
  [/^must be a whole number from 1 to 22$/, 'zoomRange'],
  [/^may contain only letters, digits/, 'keyCharacters'],
];

/** A problem the server or a shared check (src/map/base-map.ts) words, in the admin's language. */
export function describeProblem(problem: string, t: Translate): string {
  const known = PROBLEMS.find(([pattern]) => pattern.test(problem));
  return known ? t(known[1]) : problem;
}

export interface DescribedError {
  /** the form field the server named, when it named one */
  field?: string;
  text: string;
}

/** A network failure: the request never got an answer. */
export function isNetworkError(error: unknown): boolean {
  // No error shape came back: the server was never reached (or answered no tRPC at all).
  if (error instanceof TRPCClientError) return !error.data;
  return error instanceof TypeError;
}

/** An error the session overlay or the password form already deals with. */
export function isAuthProblem(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'UNAUTHORIZED' || code === 'FORBIDDEN';
}

export function describeError(error: unknown, t: Translate): DescribedError {
  if (isNetworkError(error)) return { text: t('networkError') };
  const message = error instanceof Error ? error.message : String(error);
  const whole = MESSAGES[message];
  if (whole) return { text: t(whole) };
  if (/ not found$/.test(message)) return { text: t('notFound') };
  const wait = /Try again in (\d+) seconds/.exec(message);
  if (wait) return { text: t('tooManyAttempts', { seconds: wait[1] }) };

  const fieldProblem = /^([a-z_]+)(?:\.\d+)*: (.+)$/.exec(message);
  if (fieldProblem) {
    const [, field, problem] = fieldProblem;
    return { field, text: describeProblem(problem, t) };
  }
  const known = PROBLEMS.find(([pattern]) => pattern.test(message));
  return { text: known ? t(known[1]) : message || t('errorOccurred') };
}
