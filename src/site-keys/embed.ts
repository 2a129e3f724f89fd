// /embed and /embed.js: the locator alone, for other sites' pages. /embed may be framed only by
// the origins of the site key it names (Content-Security-Policy frame-ancestors, set per answer
// from the key; every other page of the site says 'none'), and `parent`, the framing page's origin
// the frame posts its height to, must be one of them. /embed.js is embed-loader.ts's function.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { KEY_TEXT, keysByText } from './keys.js';
import { embedLoader } from './embed-loader.js';

const LOADER = `(${embedLoader.toString()})();\n`;

/** A page for a frame that cannot be shown; never framed (the site's frame-ancestors 'none'). */
const refusal = (text: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  `<title>${text}</title></head><body><p>${text}</p></body></html>`;

export async function embedPlugin(
  app: FastifyInstance,
  options: { db: Db; csp: string; hasWeb: boolean; webRoot: string },
): Promise<void> {
  const { db, csp, hasWeb, webRoot } = options;
  // The site's own policy, but framed by the key's origins instead of by nobody.
  const framedBy = (origins: readonly string[]) =>
    csp.replace(/frame-ancestors [^;]*/, `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`);

  app.get('/embed.js', async (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      // Other sites load it with a script tag.
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'public, max-age=300')
      .send(LOADER),
  );

  app.get('/embed', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const text = typeof query.key === 'string' ? query.key : '';
    const key = KEY_TEXT.test(text) ? (await keysByText(db)).byText.get(text) : undefined;
    reply.header('cache-control', 'no-cache');
    if (!key)
      return reply.code(401).type('text/html; charset=utf-8').send(refusal('This locator needs a valid site key.'));
    const parent = typeof query.parent === 'string' ? query.parent : undefined;
    if (parent !== undefined && !key.origins.includes(parent)) {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(refusal('This site key may not be used on this site.'));
    }
    if (!hasWeb) return reply.code(503).type('text/plain').send('The web app is not built: run npm run build');
    // frame-ancestors decides; X-Frame-Options would say SAMEORIGIN to older browsers.
    reply.header('content-security-policy', framedBy(key.origins)).removeHeader('x-frame-options');
    return reply.sendFile('embed.html', webRoot);
  });
}
