// GET /api/openapi.json: the OpenAPI 3.1 document of the REST surface, generated from the routes
// table (paths, methods, input sources, answers) and the procedures' own zod schemas (inputs,
// access), so it cannot drift from the code. Nothing here is written per path.
import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { appRouter } from '../procedures/index.js';
import type { ProcedureMeta } from '../trpc/init.js';
import { errorBody, uploadResponse } from './responses.js';
import { routes, type RestRoute } from './routes.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema, built and read loosely
type JsonSchema = Record<string, any>;

export interface ProcedureDef {
  inputs: ZodTypeAny[];
  meta?: ProcedureMeta;
  type: 'query' | 'mutation';
}

/** A procedure's zod inputs, access and kind, by its path in appRouter (the REST plugin reads them too). */
export function procedureDef(path: string): ProcedureDef {
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>)[path];
  if (!procedure) throw new Error(`routes.ts names an unknown procedure ${path}`);
  return procedure._def;
}

/** A zod schema as the JSON Schema (2020-12 compatible) of what a client sends or receives. */
export function jsonSchema(schema: ZodTypeAny, io: 'input' | 'output' = 'input'): JsonSchema {
  const converted = zodToJsonSchema(schema, {
    $refStrategy: 'none',
    // Query strings and forms are coerced by preprocessors: describe what may be sent.
    effectStrategy: 'input',
    pipeStrategy: io,
    // Only .strict() objects refuse other keys; the rest strip them.
    removeAdditionalStrategy: 'strict',
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** The object schema at the heart of an input (a `.default({})` or refinement around it). */
function objectSchema(schema: JsonSchema): JsonSchema | null {
  if (schema.type === 'object' && schema.properties) return schema;
  for (const key of ['allOf', 'anyOf']) {
    for (const part of (schema[key] as JsonSchema[] | undefined) ?? []) {
      const found = objectSchema(part);
      if (found) return found;
    }
  }
  return null;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input; the message names the field (`field: problem`)',
  401: 'Not logged in, or an unknown or deleted site key',
  403: 'Refused: a cross-site write, a password that must be changed first, or a site key used from an origin it does not list',
  404: 'Unknown id',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported media type',
  429: "Too many requests (or a site key's requests for the day spent); see Retry-After",
  503: 'A place source or the database is unavailable (`Service temporarily unavailable`); see Retry-After',
  507: 'The server is out of storage space: nothing was saved',
};

const errorRef = { $ref: '#/components/schemas/Error' };

function errorResponses(statuses: number[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of [...new Set(statuses)].sort()) {
    const headers =
      status === 429 || status === 503
        ? { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } }
        : undefined;
    out[String(status)] = {
      description: STATUS_TEXT[status],
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: errorRef } },
    };
  }
  return out;
}

function operation(route: RestRoute): JsonSchema {
  const def = procedureDef(route.procedure);
  const access = def.meta?.access ?? 'public';
  const input = def.inputs[0] ? jsonSchema(def.inputs[0]) : null;
  const op: JsonSchema = {
    operationId: route.procedure,
    summary: `${route.procedure} (also served over tRPC at /trpc/${route.procedure})`,
    tags: [route.procedure.split('.')[0]],
  };
  // A public read may carry a site key (another site's pages: its quota, its origins) or none.
  const keyed = access === 'public' && route.method === 'GET' && !route.path.startsWith('/api/admin/');
  if (access !== 'public') op.security = [{ sessionCookie: [] }];
  else op.security = keyed ? [{}, { siteKeyHeader: [] }, { siteKeyQuery: [] }] : [];

  const parameters: JsonSchema[] = [];
  if (input && (route.source === 'query' || route.source === 'path')) {
    const object = objectSchema(input);
    const required = new Set<string>(object?.required ?? []);
    for (const [name, schema] of Object.entries<JsonSchema>(object?.properties ?? {})) {
      const inPath = route.source === 'path' && route.path.includes(`:${name}`);
      const parameter: JsonSchema = {
        name,
        in: inPath ? 'path' : 'query',
        required: inPath || required.has(name),
        schema,
      };
      if (schema.type === 'array') Object.assign(parameter, { style: 'form', explode: true });
      parameters.push(parameter);
    }
  }
  if (parameters.length) op.parameters = parameters;

  if (input && (route.source === 'json' || route.source === 'form')) {
    const content: JsonSchema = { 'application/json': { schema: input } };
    if (route.source === 'form') {
      const object = objectSchema(input) ?? { type: 'object', properties: {} };
      content['multipart/form-data'] = {
        schema: {
          ...object,
          required: (object.required ?? []).filter((name: string) => name !== 'media_url'),
          properties: {
            ...object.properties,
            file: { type: 'string', contentEncoding: 'binary', description: 'instead of media_url' },
          },
        },
      };
    }
    op.requestBody = { required: true, content };
  }

  const example = EXAMPLES[route.procedure];
  op.responses = {
    '200': {
      description: route.answers,
      content: {
        'application/json': { schema: jsonSchema(route.response, 'output'), ...(example ? { example } : {}) },
      },
    },
    ...errorResponses([
      ...(input ? [400] : []),
      ...(access !== 'public' || keyed ? [401] : []),
      ...(access === 'admin' || route.method !== 'GET' || keyed ? [403] : []),
      ...(route.method === 'PUT' || route.method === 'DELETE' || route.source === 'path' ? [404] : []),
      ...(route.source === 'json' || route.source === 'form' ? [413, 415] : []),
      ...(route.procedure.startsWith('places.') ? [503] : []),
      ...(route.method !== 'GET' ? [507] : []),
      429,
    ]),
    default: { description: 'any other error', content: { 'application/json': { schema: errorRef } } },
  };
  return op;
}

/** Examples of answers, for readers of the document; validated against its schemas by a test. */
export const EXAMPLES: Record<string, unknown> = {
  'places.search': {
    results: [
      {
        id: 'node/2448290932',
        name: 'Farmàcia Pons',
        unnamed: false,
        address: 'Avinguda Meritxell 12, Andorra la Vella',
        address_source: 'osm',
        lat: 42.5075,
        lon: 1.5218,
        distance: 0.31,
        phone_number: '+376 820 000',
        status_label: 'Open now',
        category: 'pharmacy',
        status: 'open',
        opening_hours: 'Mo-Sa 09:00-20:00',
        website: null,
        wheelchair: 'yes',
        source: 'osm',
        travel_minutes: 5,
        status_on_arrival: 'open',
        status_on_arrival_label: 'Open, closes 20:00 (you arrive 10:05 on foot)',
      },
    ],
    city_center: { lat: 42.5063, lon: 1.5218 },
  },
  'auth.login': { success: true, must_change_password: false },
  'messages.send': { success: true, id: 7, message: 'Message sent successfully' },
  'visits.daily': [
    { day: '2026-11-20', count: 31 },
    { day: '2026-11-21', count: 42 },
  ],
};

let cached: JsonSchema | null = null;

export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  // The one path outside the table (it streams a file, not a procedure's input).
  paths['/api/uploads'] = {
    post: {
      operationId: 'uploads',
      summary: 'Stores one image or video for the admin pages (then passed as media_url)',
      tags: ['uploads'],
      security: [{ sessionCookie: [] }],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', contentEncoding: 'binary' } },
            },
          },
        },
      },
      responses: {
        '201': {
          description: '{success, url, type, size}',
          content: { 'application/json': { schema: jsonSchema(uploadResponse, 'output') } },
        },
        ...errorResponses([400, 401, 403, 413, 415, 429]),
        default: { description: 'any other error', content: { 'application/json': { schema: errorRef } } },
      },
    },
  };
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['meta'],
      security: [{}, { siteKeyHeader: [] }, { siteKeyQuery: [] }],
      responses: {
        '200': {
          description: 'an OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Nearby Place Finder API',
      version: '1',
      description:
        'JSON bodies. Errors answer {"error": "<message>"}. Every unsafe request must come from the site\'s own origin ' +
        '(Sec-Fetch-Site, else Origin). Place data © OpenStreetMap contributors, ODbL.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, 'output') },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'set by POST /api/admin/login' },
        siteKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description:
            "a site key (the admin's Site keys page): optional on the public reads. Allowed only from the origins the key lists " +
            '(403 otherwise; a request without Origin, from a server, is allowed), 401 for an unknown or deleted key, 429 with ' +
            'Retry-After past its requests per UTC day; counted against the key, not the address',
        },
        siteKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'key',
          description: 'the same site key as a query parameter',
        },
      },
    },
  };
  return cached;
}
