// What a project config does to a review: its rule settings go into the engine's configuration
// (offline), and its ignore patterns drop the findings of ignored paths. A review done elsewhere
// (the service, which has its own rule configuration) gets the same settings applied to its
// findings, so both ways give the same result.
import ignore from 'ignore';
import type { EngineConfig, Finding } from '../../engine/index.ts';
import type { ProjectConfig } from './load-config.ts';

export function engineConfigOf(config: ProjectConfig): EngineConfig {
  return Object.keys(config.rules).length > 0 ? { rules: { ...config.rules } } : {};
}

export interface ConfiguredFindings {
  findings: Finding[];
  /** Findings removed because their path is ignored. */
  ignored: number;
}

/** Whether the config's ignore patterns leave a path out. */
export function ignoredBy(config: ProjectConfig): (path: string) => boolean {
  if (config.ignore.length === 0) return () => false;
  const matcher = ignore({ allowRelativePaths: true }).add(config.ignore);
  return (path) => matcher.ignores(path);
}

/** The findings the config keeps (rules off and ignored paths removed), with their configured severity. */
export function applyProjectConfig(findings: readonly Finding[], config: ProjectConfig): ConfiguredFindings {
  const isIgnored = ignoredBy(config);
  const kept: Finding[] = [];
  let ignored = 0;
  for (const finding of findings) {
    const setting = config.rules[finding.rule_id];
    if (setting === 'off') continue;
    if (isIgnored(finding.file_path)) {
      ignored++;
      continue;
    }
    kept.push(setting === undefined || setting === finding.severity ? finding : { ...finding, severity: setting });
  }
  return { findings: kept, ignored };
}
