// What a project config does to a review: its rule settings go into the engine's configuration
// (offline), and its ignore patterns drop the findings of ignored paths. A review done elsewhere
// (the service, which has its own rule configuration) gets the same settings applied to its
// findings, so both ways give the same result.
import { splitRuleId } from '../api/rule-id.ts';
import ignore from 'ignore';
import type { EngineConfig, Finding } from '../engine/index.ts';
import type { RuleSetting } from './config-schema.ts';
import type { ProjectConfig } from './load-config.ts';

export function engineConfigOf(config: ProjectConfig): EngineConfig {
  // A rule off everywhere but turned on for some paths must still run: it is dropped per path after.
  const onSomewhere = new Set(
    config.overrides.flatMap((override) => Object.keys(override.rules).filter((id) => override.rules[id] !== 'off')),
  );
  const rules = Object.fromEntries(
    Object.entries(config.rules).filter(([id, setting]) => setting !== 'off' || !onSomewhere.has(id)),
  );
  const suppressions = {
    ...(config.suppressions?.require_reason !== undefined ? { requireReason: config.suppressions.require_reason } : {}),
    ...(config.suppressions?.other_tools !== undefined ? { otherTools: config.suppressions.other_tools } : {}),
  };
  return {
    ...(Object.keys(rules).length > 0 ? { rules } : {}),
    ...(Object.keys(suppressions).length > 0 ? { suppressions } : {}),
  };
}

/** What the config grades: a finding, or a comment of the API with its rule id. */
type Graded = Pick<Finding, 'rule_id' | 'file_path' | 'severity'>;

export interface ConfiguredFindings<T extends Graded = Finding> {
  findings: T[];
  /** Findings removed because their path is ignored. */
  ignored: number;
}

/** Whether the config's ignore patterns leave a path out. */
export function ignoredBy(config: ProjectConfig): (path: string) => boolean {
  if (config.ignore.length === 0) return () => false;
  const matcher = ignore({ allowRelativePaths: true }).add(config.ignore);
  return (path) => matcher.ignores(path);
}

/** A rule's setting for a path: the last override that matches the path and names the rule, else `rules`. */
function ruleSettings(config: ProjectConfig): (ruleId: string, path: string) => RuleSetting | undefined {
  const overrides = config.overrides.map((override) => ({
    matcher: ignore({ allowRelativePaths: true }).add(override.files),
    rules: override.rules,
  }));
  return (ruleId, path) => {
    for (let i = overrides.length - 1; i >= 0; i--) {
      const override = overrides[i]!;
      const setting = override.rules[ruleId];
      if (setting !== undefined && override.matcher.ignores(path)) return setting;
    }
    return config.rules[ruleId];
  };
}

/** The findings the config keeps (rules off and ignored paths removed), with their configured severity. */
export function applyProjectConfig<T extends Graded>(
  findings: readonly T[],
  config: ProjectConfig,
): ConfiguredFindings<T> {
  const isIgnored = ignoredBy(config);
  const settingOf = ruleSettings(config);
  const kept: T[] = [];
  let ignored = 0;
  for (const finding of findings) {
    const setting = settingOf(finding.rule_id, finding.file_path);
    if (setting === 'off') continue;
    if (isIgnored(finding.file_path)) {
      ignored++;
      continue;
    }
    kept.push(setting === undefined || setting === finding.severity ? finding : { ...finding, severity: setting });
  }
  return { findings: kept, ignored };
}

/**
 * The API's comments under the config, for a client whose review the service did (its rule id is
 * the message's `rule-id: ` prefix): the same settings the CLI applies, so that one repository
 * gets the same findings everywhere.
 */
export function configuredComments<C extends Omit<Graded, 'rule_id'> & { message: string }>(
  comments: readonly C[],
  config: ProjectConfig,
): Omit<C & { rule_id: string }, 'rule_id'>[] {
  const withIds = comments.map((comment) => ({ ...comment, rule_id: splitRuleId(comment.message).ruleId ?? '' }));
  return applyProjectConfig(withIds, config).findings.map(({ rule_id: _ruleId, ...comment }) => comment);
}
