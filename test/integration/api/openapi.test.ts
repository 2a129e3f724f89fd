// GET /api/openapi.json: a valid OpenAPI 3.1 document with every route of the table, its access,
// the contract's error shape, and examples that match their own schemas. (That every answer the
// API tests receive matches it is checked in buildTestApp's request: test/support/openapi.ts.)
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../../src/procedures/index.js';
import { routes } from '../../../src/rest/routes.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { checkAnswer } from '../../support/openapi.js';

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await buildTestApp();
    const response = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    doc = response.json();
  });
  afterAll(() => t.close());

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every route of the table, and the upload path', () => {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.procedure);
    }
    expect(doc.paths['/api/uploads'].post.responses['201']).toBeDefined();
  });

  it('names the procedure each route really calls', async () => {
    for (const route of routes) {
      const called: string[] = [];
      // A caller that records which procedure the route's `call` reaches.
      const recorder = new Proxy(
        {},
        {
          get: (_, ns: string) =>
            new Proxy({}, { get: (_, name: string) => async () => void called.push(`${ns}.${name}`) }),
        },
      );
      await route.call(recorder as never, {});
      expect(called, `${route.method} ${route.path}`).toEqual([route.procedure]);
    }
  });

  it('marks admin paths with the session cookie and leaves public ones open', () => {
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
    expect(doc.paths['/api/messages'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/messages'].get.responses['401']).toBeDefined();
    // A public read takes a site key or none ({}: anonymous).
    expect(doc.components.securitySchemes.siteKeyHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    expect(doc.components.securitySchemes.siteKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'key' });
    expect(doc.paths['/api/places'].get.security).toEqual([{}, { siteKeyHeader: [] }, { siteKeyQuery: [] }]);
    expect(doc.paths['/api/places'].get.responses['401'].description).toMatch(/site key/);
    expect(doc.paths['/api/contact'].post.security).toEqual([]);
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { access?: string } } }>;
    for (const route of routes) {
      const admin = procedures[route.procedure]._def.meta?.access !== 'public';
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const security = doc.paths[path][route.method.toLowerCase()].security as object[];
      expect(
        security.some((scheme) => 'sessionCookie' in scheme),
        route.path,
      ).toBe(admin);
      expect(
        security.some((scheme) => 'siteKeyHeader' in scheme),
        route.path,
      ).toBe(!admin && route.method === 'GET' && !route.path.startsWith('/api/admin/'));
    }
  });

  it('documents the contract error shape and the inputs from the zod schemas', () => {
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['error'],
      additionalProperties: false,
    });
    const places = doc.paths['/api/places'].get;
    const lat = places.parameters.find((p: any) => p.name === 'lat');
    expect(lat.schema).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    expect(places.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(places.responses['503'].headers['Retry-After']).toBeDefined();
    const plans = doc.paths['/api/plans'].post.requestBody.content['application/json'].schema;
    expect(plans.required).toEqual(expect.arrayContaining(['name', 'price', 'type', 'link']));
    expect(plans.properties.type.enum).toEqual(['basic', 'pro', 'premium']);
    expect(doc.paths['/api/admin/users/{id}'].delete.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
  });

  it('has examples that match their schemas', () => {
    let examples = 0;
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const example = operation.responses['200']?.content?.['application/json']?.example;
        if (example === undefined) continue;
        examples++;
        expect(() =>
          checkAnswer(method.toUpperCase(), path, 200, 'application/json', JSON.stringify(example)),
        ).not.toThrow();
      }
    }
    expect(examples).toBeGreaterThanOrEqual(3);
  });

  it('the answer check catches an answer the document does not describe', () => {
    expect(() =>
      checkAnswer('GET', '/api/visits', 200, 'application/json', JSON.stringify({ current_visits: 'many' })),
    ).toThrow(/does not match/);
    expect(() =>
      checkAnswer('GET', '/api/places', 400, 'application/json', JSON.stringify({ error: 'x', stack: 'y' })),
    ).toThrow(/does not match/);
    expect(() => checkAnswer('GET', '/api/settings', 200, 'text/html', '<html>')).toThrow(/not JSON/);
  });
});
