// A finding's fingerprint stays the same when unrelated edits move its line: it is made of the
// rule, the file, the line's trimmed text (any secret on it masked: see finish.ts) and which
// occurrence of that text it is, not the line number.
import { createHash } from 'node:crypto';

export function findingFingerprint(ruleId: string, filePath: string, lineText: string, occurrence: number): string {
  return createHash('sha256')
    .update(`${ruleId}\0${filePath}\0${lineText.trim()}\0${occurrence}`)
    .digest('hex')
    .slice(0, 32);
}
