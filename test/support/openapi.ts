// Checks answers against the served OpenAPI document: buildTestApp's `request` runs every /api
// answer through `checkAnswer`, so each API test also proves the document describes what it got.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/rest/openapi.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const doc = openApiDocument() as any;
ajv.addSchema({ ...doc.components.schemas.Error, $id: 'Error' });
const compiled = new Map<string, ValidateFunction>();

/** The document's path template matching a request path (`/api/admin/users/{id}`), if any. */
export function templateOf(path: string): string | null {
  for (const template of Object.keys(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return template;
  }
  return null;
}

/** Throws when a JSON answer of a documented path does not match its documented schema. */
export function checkAnswer(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: string,
): void {
  const path = url.split('?')[0];
  const template = templateOf(path);
  if (!template) return; // an unknown path: nothing to check against
  const operation = doc.paths[template][method.toLowerCase()];
  if (!operation) return; // 404/405 for a method the path lacks
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) throw new Error(`${method} ${template} answered ${status}, which the OpenAPI document does not list`);
  if (status >= 200 && status < 300 && !response.content) return;
  if (!(contentType ?? '').startsWith('application/json'))
    throw new Error(`${method} ${template} ${status}: answered ${contentType}, not JSON`);
  const schema = response.content['application/json'].schema;
  const key = `${method} ${template} ${status in operation.responses ? status : 'default'}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/Error"', '"Error"')));
    compiled.set(key, validate);
  }
  if (!validate(JSON.parse(body))) {
    throw new Error(
      `${method} ${url} ${status}: the answer does not match the OpenAPI document: ${ajv.errorsText(validate.errors)}\n${body.slice(0, 500)}`,
    );
  }
}
