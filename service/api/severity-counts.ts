// How many comments of each severity: the CLI's summary, the extension's status bar, the
// dashboard's rows and file headings count the same way.
import type { Severity } from './schemas.ts';

export type SeverityCounts = Record<Severity, number>;

export function countBySeverity(items: Iterable<{ severity: Severity }>): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const item of items) counts[item.severity]++;
  return counts;
}
