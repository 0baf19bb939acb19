// Filter drivers (`filter.<driver>.clean`, `.smudge`, `.process`) are commands git runs on
// working-tree files, `git diff` included, for the files a repository's attributes name. Those the
// user configured (global, system or command-line settings) stay, so Git LFS keeps working; those
// the repository's own config files define are blanked, so reviewing a repository someone else
// prepared never runs their commands.

/** One `-c`-style setting, passed through GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n (any key is safe there). */
export interface ConfigSetting {
  key: string;
  value: string;
}

/** `git config` arguments that list every filter command with its scope, NUL-separated. */
export const FILTER_COMMANDS_LISTING: readonly string[] = [
  'config',
  '--null',
  '--show-scope',
  '--get-regexp',
  '^filter\\..+\\.(clean|smudge|process)$',
];

/**
 * Passed to the listing only, and listed back by a git that reads GIT_CONFIG_COUNT (2.31 and newer).
 * An older git would silently ignore the overrides, so its absence means: refuse to run.
 */
export const LISTING_CANARY: ConfigSetting = { key: 'filter.diff-review-canary.clean', value: 'cat' };

/** True when the listing came from a git that honours the overrides (see LISTING_CANARY). */
export function honoursOverrides(listing: string): boolean {
  return listing.includes(`command\0${LISTING_CANARY.key}\n${LISTING_CANARY.value}\0`);
}

/** Scopes the user controls. Anything else (`local`, `worktree`, an unknown one) is the repository's. */
const USER_SCOPES = new Set(['system', 'global', 'command']);

/**
 * The settings that undo the repository's filter commands, given the output of
 * FILTER_COMMANDS_LISTING (`scope NUL key LF value NUL` per entry; git lets the last value win).
 * A command the repository overrides falls back to the user's own value for that key, else to
 * empty; a driver left with an empty command is marked not required, so git does not fail. (An
 * empty `process` also turns off the driver's `clean` and `smudge`: git prefers `process` when it is
 * set at all. So a repository that adds a `process` to a filter of the user's gets no filter.)
 */
export function filterOverrides(listing: string): ConfigSetting[] {
  const winner = new Map<string, { scope: string; value: string }>();
  const userValue = new Map<string, string>();
  const fields = listing.split('\0');
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index] ?? '';
    const entry = fields[index + 1] ?? '';
    const newline = entry.indexOf('\n');
    const key = newline < 0 ? entry : entry.slice(0, newline);
    const value = newline < 0 ? '' : entry.slice(newline + 1);
    winner.set(key, { scope, value });
    if (USER_SCOPES.has(scope)) userValue.set(key, value);
  }

  const settings: ConfigSetting[] = [];
  const blankedDrivers = new Set<string>();
  for (const [key, { scope }] of winner) {
    if (USER_SCOPES.has(scope)) continue;
    const value = userValue.get(key) ?? '';
    settings.push({ key, value });
    if (value === '') blankedDrivers.add(key.slice(0, key.lastIndexOf('.')));
  }
  for (const driver of blankedDrivers) settings.push({ key: `${driver}.required`, value: 'false' });
  return settings;
}

/** The environment variables that add `settings` after any the environment already carries. */
export function configEnvironment(env: NodeJS.ProcessEnv, settings: readonly ConfigSetting[]): NodeJS.ProcessEnv {
  if (settings.length === 0) return {};
  const first = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10) || 0;
  const added: NodeJS.ProcessEnv = { GIT_CONFIG_COUNT: String(first + settings.length) };
  settings.forEach(({ key, value }, offset) => {
    added[`GIT_CONFIG_KEY_${first + offset}`] = key;
    added[`GIT_CONFIG_VALUE_${first + offset}`] = value;
  });
  return added;
}
