// Request validation from the contract's schemas. Bodies are checked strictly (no coercion, no
// silently removed properties: an unknown property is an error); query strings and path
// parameters are coerced, since everything in a URL is a string, but an integer in a URL must be
// written in plain decimal digits (Ajv's coercion, Number(), would take `1e2` and `0x10`).
import { _, Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { sharedSchemas } from '../api/schemas.ts';

function makeAjv(options: Options) {
  const ajv = new Ajv({
    allErrors: false,
    verbose: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats.default(ajv);
  for (const schema of sharedSchemas) ajv.addSchema(schema);
  return ajv;
}

// Made when a request is first validated, not at start: each compiles JSON Schema's meta-schema.
let bodyAjv: Ajv | undefined;
let urlAjv: Ajv | undefined;

/**
 * `minLength: 1` on its own, checked as `length === 0`. Ajv counts a string's characters by code
 * points (as JSON Schema says) in a loop over the whole string, on the HTTP thread, for every
 * create (what that costs 1 MB creates: test/bench/README.md). Whether a string is empty does not depend on how its characters are
 * counted, so for a string schema whose only length rule is `minLength: 1` the answer, and the
 * error (keyword, limit, message), are the same.
 */
const NON_EMPTY = 'x-non-empty';

function makeBodyAjv() {
  const ajv = makeAjv({ coerceTypes: false });
  ajv.addKeyword({
    keyword: NON_EMPTY,
    type: 'string',
    schemaType: 'boolean',
    error: { message: 'must NOT have fewer than 1 characters', params: () => _`{limit: 1}` },
    code: (cxt) => cxt.fail(_`${cxt.data}.length === 0`),
  });
  return ajv;
}

/** A copy of a body schema with every lone `minLength: 1` (no other string rule) checked by NON_EMPTY. */
function withCheapNonEmpty(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withCheapNonEmpty);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] =
      key === 'const' || key === 'default' || key === 'enum' || key === 'examples' ? value : withCheapNonEmpty(value);
  if (
    copy.type === 'string' &&
    copy.minLength === 1 &&
    copy.maxLength === undefined &&
    copy.pattern === undefined &&
    copy.format === undefined
  ) {
    delete copy.minLength;
    copy[NON_EMPTY] = true;
  }
  return copy;
}

/** Fastify asks for every route's validators at start; each is compiled when it first validates. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  compiledOnFirstUse(() =>
    httpPart === 'body'
      ? (bodyAjv ??= makeBodyAjv()).compile(withCheapNonEmpty(schema) as object)
      : withDecimalIntegers(schema, (urlAjv ??= makeAjv({ coerceTypes: true })).compile(schema as object)),
  ) as ReturnType<FastifySchemaCompiler<FastifySchema>>;

function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const lazy = ((data: unknown) => {
    validate ??= compile();
    const valid = validate(data);
    lazy.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return lazy;
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;
const NOT_DECIMAL = 'x-decimal-digits';

/** The validator, first refusing an integer property (of a URL part) not written in decimal digits. */
function withDecimalIntegers(schema: unknown, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const integers = Object.keys(properties).filter((name) => properties[name]?.type === 'integer');
  if (integers.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | undefined) => {
    for (const name of integers) {
      const value = data?.[name];
      if (typeof value === 'string' && !DECIMAL_INTEGER.test(value)) {
        checked.errors = [
          {
            keyword: NOT_DECIMAL,
            instancePath: `/${name}`,
            schemaPath: '',
            params: {},
            message: 'must be decimal digits',
          },
        ];
        return false;
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** An error of a validation, as Ajv gives it (`parentSchema` with its `verbose` option) and Fastify passes it on. */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: unknown;
}

/** One sentence that names the field and says what it must be. */
export function describeValidationError(errors: readonly ValidationIssue[], part: string): string {
  const error = errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
  if (!error) return 'The request is not valid.';
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
  const what = path ? `${part === 'body' ? '' : `${PART_NAMES[part] ?? part} `}${path}` : (PART_NAMES[part] ?? part);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return `${prefix(what, part, path)}${String(params.missingProperty)} is required.`;
    case 'additionalProperties':
      return `${prefix(what, part, path)}unknown property "${String(params.additionalProperty)}"${allowed(error)}.`;
    case 'type':
      return path
        ? `${what} must be ${article(String(params.type))}.`
        : `The request ${PART_NAMES[part] ?? part} must be a JSON ${String(params.type)}.`;
    case 'minLength':
    case NON_EMPTY:
      return params.limit === 1
        ? `${what} must not be empty.`
        : `${what} must be at least ${String(params.limit)} characters.`;
    case 'maxLength':
      return `${what} must be at most ${String(params.limit)} characters.`;
    case 'pattern':
      return `${what} ${patternMeaning(path)}.`;
    case 'minimum':
    case 'maximum':
      return `${what} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}.`;
    case 'minItems':
      return `${what} must have at least ${String(params.limit)} item(s).`;
    case 'uniqueItems':
      return `${what} must not repeat items.`;
    case 'anyOf': {
      const options = (error.parentSchema as { anyOf?: Alternative[] })?.anyOf ?? [];
      if (options.every((s) => s.const !== undefined))
        return `${what} must be one of ${options.map((s) => JSON.stringify(s.const)).join(', ')}.`;
      return `${what} must be ${options.map(describeAlternative).join(', or ')}.`;
    }
    case NOT_DECIMAL:
      return `${what} must be a whole number written in decimal digits (such as 20).`;
    case 'const':
      return `${what} must be ${JSON.stringify(params.allowedValue)}.`;
    case 'format':
      return `${what} must be a valid ${String(params.format)}.`;
    default:
      return `${what} ${error.message ?? 'is not valid'}.`;
  }
}

interface Alternative {
  const?: unknown;
  type?: string;
  minimum?: number;
  maximum?: number;
}

/** `an integer from 1 to 365`, `null`, `"queued"`, `a string`. */
function describeAlternative(schema: Alternative): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'null' || schema.type === undefined) return 'null';
  const kind = article(schema.type);
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `${kind} from ${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `${kind} of at least ${schema.minimum}`;
  if (schema.maximum !== undefined) return `${kind} of at most ${schema.maximum}`;
  return kind;
}

const prefix = (what: string, part: string, path: string) =>
  path ? `${what}: ` : part === 'body' ? '' : `${PART_NAMES[part] ?? part}: `;

function allowed(error: ValidationIssue): string {
  const properties = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
  return properties.length ? ` (allowed: ${properties.join(', ')})` : '';
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function patternMeaning(path: string): string {
  if (path === 'repository')
    return 'must not contain control, format or line-separator characters (such as U+0000–U+001F, U+0085, U+200B, U+202E, U+2028)';
  if (path === 'name') return 'must have a visible character, and no control, format or line-separator characters';
  if (path === 'base_commit') return 'must be 7–64 hexadecimal digits (a commit id)';
  return 'has an invalid format';
}
