// Rewrites schema/diff-review-config.schema.json from the engine's rules:
// `node service/project-config/write-config-schema.ts` after adding or renaming a rule.
import { writeFileSync } from 'node:fs';
import { CONFIG_SCHEMA } from './config-schema.ts';

export const CONFIG_SCHEMA_FILE = new URL('../../schema/diff-review-config.schema.json', import.meta.url);

if (import.meta.main) writeFileSync(CONFIG_SCHEMA_FILE, `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
