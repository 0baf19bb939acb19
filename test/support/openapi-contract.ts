// Checks responses against the service's own OpenAPI document, the source of truth. The test
// service hands out a fetch that runs every response through this, so every response the suite
// sees is checked, and the suite fails on the first one that strays from the document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export class OpenApiContract {
  readonly #doc: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #paths: { template: string; pattern: RegExp }[];
  /** Every problem seen so far, so a test can assert there were none. */
  readonly violations: string[] = [];
  checked = 0;

  constructor(doc: object) {
    this.#doc = doc as OpenApiDocument;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: 'openapi.json' });
    this.#paths = Object.keys(this.#doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Checks one response (its body already read as text); records and throws a violation. */
  check(method: string, url: string, status: number, contentType: string, body: string): void {
    this.checked++;
    const problem = this.#problem(method.toLowerCase(), new URL(url).pathname, status, contentType, body);
    if (problem) {
      const message = `${method} ${new URL(url).pathname} → ${status}: ${problem}`;
      this.violations.push(message);
      throw new ContractViolation(message);
    }
  }

  #problem(method: string, pathname: string, status: number, contentType: string, body: string): string | undefined {
    const isError = status >= 400;
    let json: unknown;
    if (isError || contentType.includes('json')) {
      if (body === '' && status === 204) return undefined;
      try {
        json = JSON.parse(body);
      } catch {
        return `body is not JSON: ${body.slice(0, 80)}`;
      }
    }
    // Every non-2xx of the server is in the error shape, whatever the route (the API contract).
    if (isError) {
      const validate = this.#compile('#/components/schemas/ErrorResponse');
      if (!validate(json)) return `not an ErrorResponse: ${this.#ajv.errorsText(validate.errors)}`;
    }
    const path = this.#paths.find((p) => p.pattern.test(pathname));
    const operation = path && this.#doc.paths[path.template]?.[method];
    if (!operation) return isError ? undefined : 'a success for an operation the document does not have';
    const response = operation.responses[String(status)];
    if (!response) {
      // 405/408/413/421/431 and the like come from the HTTP layer, not the operation; they were checked above.
      return isError && [405, 408, 413, 421, 431, 503].includes(status)
        ? undefined
        : `status ${status} is not documented`;
    }
    if (status === 204) return body === '' ? undefined : '204 with a body';
    const media = Object.keys(response.content ?? {});
    const mediaType = media.find((m) => contentType.startsWith(m));
    if (!mediaType) return `content-type ${contentType} is not one of ${media.join(', ')}`;
    if (!mediaType.includes('json') || mediaType === 'application/sarif+json') return undefined;
    const pointer = `#/paths/${escapePointer(path.template)}/${method}/responses/${status}/content/${escapePointer(mediaType)}/schema`;
    const validate = this.#compile(pointer);
    return validate(json) ? undefined : this.#ajv.errorsText(validate.errors);
  }

  #compile(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `openapi.json${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate;
  }

  /** A fetch that checks every response it returns. */
  fetch(inner: typeof fetch = globalThis.fetch): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init);
      const response = await inner(request);
      const contentType = response.headers.get('content-type') ?? '';
      // Streams (SSE) are checked by their status and type only; reading them would wait for the end.
      if (contentType.startsWith('text/event-stream')) {
        this.check(request.method, request.url, response.status, contentType, '');
        return response;
      }
      const body = await response.clone().text();
      this.check(request.method, request.url, response.status, contentType, body);
      return response;
    };
  }
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
