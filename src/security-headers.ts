// The security headers every answer carries. helmet decides them (its defaults are the
// community's reviewed ones); they depend only on the configuration, so they are worked out once
// at start-up and set on each reply in one call, rather than helmet building them per request.
import helmet, { type HelmetOptions } from 'helmet';

export function helmetOptions(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Map tiles need to see our origin as the referrer (OpenStreetMap's tile policy).
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: secure,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Browsers ignore (and complain about) it on plain http, other than on localhost.
    crossOriginOpenerPolicy: secure,
  };
}

/** The headers helmet sets with these options, as name -> value. */
export function securityHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let failed: unknown = null;
  helmet(options)({} as never, res as never, (error?: unknown) => void (failed = error ?? null));
  if (failed) throw failed;
  return Object.freeze(headers);
}
