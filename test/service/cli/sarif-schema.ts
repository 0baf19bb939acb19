// Validates SARIF logs against the official SARIF 2.1.0 JSON Schema (test/fixtures/sarif).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The schema is written in JSON Schema draft-04; ajv speaks draft-07. The schema uses none of the
 * keywords the two drafts read differently (exclusiveMinimum/Maximum as booleans), so naming its
 * id `$id` and dropping its draft-04 `$schema` is all it takes.
 */
function loadSchema(): object {
  const {
    $schema: _draft04,
    id,
    ...schema
  } = JSON.parse(readFileSync(new URL('../../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));
  return { $id: id, ...schema };
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(loadSchema());

/** The schema's errors for this log; an empty list when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
