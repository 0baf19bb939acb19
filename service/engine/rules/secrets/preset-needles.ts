// Which lines secretlint's recommended preset is asked about: for each of its rules, the literals
// its secrets contain (like gitleaks' keywords), and for "://" a test the line must also pass.
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';

export const AWS_RULE_ID = '@secretlint/secretlint-rule-aws';

/**
 * A literal that every secret of a preset rule contains, and optionally a test the line must also
 * pass (for "://", which most URLs have: only URLs with credentials or a Slack webhook count).
 */
export type Needle = string | { keyword: string; line: RegExp };

/** user:password@ after "://" (basic-auth URLs and database connection strings report only those). */
const URL_CREDENTIALS: Needle = { keyword: '://', line: /:\/\/[^:/\s]+:[^@/\s]+@/ };

/** Every spelling of the AWS secret access key's name the preset accepts, from "ECRET" on (its first letter's case varies). */
const AWS_SECRET_KEY_NAMES = ['ECRET', 'ecret'].flatMap((secret) =>
  ['', '_'].flatMap((s1) =>
    ['ACCESS', 'access', 'Access'].flatMap((access) =>
      ['', '_'].flatMap((s2) => ['KEY', 'key', 'Key'].map((key) => `${secret}${s1}${access}${s2}${key}`)),
    ),
  ),
);

/**
 * For each rule of @secretlint/secretlint-rule-preset-recommend: the literals its patterns
 * require (token prefixes, key names), read off the preset's patterns, like gitleaks' keywords.
 * Only lines with one of them are handed to secretlint. `null`: the rule is not a line scanner
 * here (it needs the whole file) and another rule covers what it finds.
 * The preset's rule list is checked against this table when the module loads: a rule of a newer
 * preset that is missing here turns the pre-filter off (every added line goes to secretlint),
 * so a preset update can make the review slower but never blind. test/service/engine/rules/
 * secrets.test.ts runs one real sample per rule and fails on a missing rule.
 */
export const PRESET_NEEDLES: Readonly<Record<string, readonly Needle[] | null>> = {
  [AWS_RULE_ID]: ['AKIA', 'A3T', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA', ...AWS_SECRET_KEY_NAMES],
  // A service-account key file is JSON read as a whole; its "private_key" is an inline PEM block: no-private-key.
  '@secretlint/secretlint-rule-gcp': null,
  // PEM blocks span lines: no-private-key reads the lines around the BEGIN line.
  '@secretlint/secretlint-rule-privatekey': null,
  '@secretlint/secretlint-rule-npm': ['x-oauth-basic', '_authToken=', 'npm_'],
  '@secretlint/secretlint-rule-basicauth': [URL_CREDENTIALS],
  '@secretlint/secretlint-rule-slack': [
    'xoxb-',
    'xoxp-',
    'xapp-',
    'xoxa-',
    'xoxo-',
    'xoxr-',
    { keyword: '://', line: /:\/\/hooks\.slack\.com\/services\//i },
  ],
  '@secretlint/secretlint-rule-sendgrid': ['SG.'],
  '@secretlint/secretlint-rule-shopify': ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  '@secretlint/secretlint-rule-stripe': ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
  '@secretlint/secretlint-rule-github': ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  '@secretlint/secretlint-rule-gitlab': ['glpat-'],
  '@secretlint/secretlint-rule-grafana': ['glc_', 'glsa_'],
  // Every OpenAI key format carries the base64 of "OpenAI" in the middle.
  '@secretlint/secretlint-rule-openai': ['T3BlbkFJ'],
  '@secretlint/secretlint-rule-anthropic': ['sk-ant-api0'],
  '@secretlint/secretlint-rule-groq': ['gsk_'],
  '@secretlint/secretlint-rule-huggingface': ['hf_'],
  '@secretlint/secretlint-rule-linear': ['lin_api_'],
  '@secretlint/secretlint-rule-notion': ['ntn_'],
  '@secretlint/secretlint-rule-1password': ['ops_ey'],
  '@secretlint/secretlint-rule-database-connection-string': [URL_CREDENTIALS],
  '@secretlint/secretlint-rule-hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  '@secretlint/secretlint-rule-vercel': ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  // "dapi" is in many words (chinacloudapi): the token is 32 hex digits after it.
  '@secretlint/secretlint-rule-databricks': [{ keyword: 'dapi', line: /dapi[A-Fa-f0-9]{32}/ }],
  '@secretlint/secretlint-rule-docker': ['dckr_pat_'],
  '@secretlint/secretlint-rule-figma': ['figd_'],
  '@secretlint/secretlint-rule-cloudflare': ['cfk_', 'cfut_', 'cfat_'],
  '@secretlint/secretlint-rule-tailscale': ['tskey-'],
  // secretlint-disable comments: a filter, not a scanner (and we have diff-review-ignore).
  '@secretlint/secretlint-rule-filter-comments': null,
};

/** Rules of the installed preset that PRESET_NEEDLES does not know. */
export const UNKNOWN_PRESET_RULES: readonly string[] = recommendedPreset.rules
  .map((rule) => rule.meta.id)
  .filter((id) => !(id in PRESET_NEEDLES));

export const NEEDLES: readonly Needle[] =
  UNKNOWN_PRESET_RULES.length > 0 ? [] : Object.values(PRESET_NEEDLES).flatMap((needles) => needles ?? []);
export const keywordOf = (needle: Needle): string => (typeof needle === 'string' ? needle : needle.keyword);
/** Keywords that count only with a line test (one of which must pass), unless another needle has them plain. */
export const LINE_TESTS = new Map<string, RegExp[]>();
for (const needle of NEEDLES)
  if (typeof needle !== 'string')
    LINE_TESTS.set(needle.keyword, [...(LINE_TESTS.get(needle.keyword) ?? []), needle.line]);
for (const needle of NEEDLES) if (typeof needle === 'string') LINE_TESTS.delete(needle);

/** What each of the preset's findings is, by its message id, for the message (never the value). */
export const PRESET_KINDS: Readonly<Record<string, string>> = {
  AWSAccessKeyID: 'AWS access key id',
  AWSSecretAccessKey: 'AWS secret access key',
  BasicAuth: 'password in a URL',
  MongoDBConnection: 'password in a MongoDB connection string',
  MySQLConnection: 'password in a MySQL connection string',
  PostgreSQLConnection: 'password in a PostgreSQL connection string',
  NPM_ACCESS_TOKEN: 'npm access token',
  Npmrc_authToken: 'npm access token',
  PackageJSON_xOauthToken: 'GitHub OAuth token in a package URL',
  SLACK_TOKEN: 'Slack token',
  IncomingWebhook: 'Slack webhook URL',
  SENDGRID_KEY: 'SendGrid API key',
  SHOPIFY_KEY: 'Shopify access token',
  STRIPE_SECRET_KEY_LIVE: 'Stripe live secret key',
  STRIPE_SECRET_KEY_TEST: 'Stripe test secret key',
  STRIPE_RESTRICTED_KEY_LIVE: 'Stripe live restricted key',
  STRIPE_RESTRICTED_KEY_TEST: 'Stripe test restricted key',
  GITHUB_TOKEN: 'GitHub token',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'GitLab personal access token',
  GRAFANA_CLOUD_API_TOKEN: 'Grafana Cloud API token',
  GRAFANA_SERVICE_ACCOUNT_TOKEN: 'Grafana service account token',
  OPENAI_TOKEN: 'OpenAI API key',
  ANTHROPIC_API_KEY: 'Anthropic API key',
  GROQ_API_KEY: 'Groq API key',
  HUGGINGFACE_USER_ACCESS_TOKEN: 'Hugging Face access token',
  LINEAR_API_TOKEN: 'Linear API key',
  NOTION_INTEGRATION_TOKEN: 'Notion integration token',
  OPS_TOKEN: '1Password service account token',
  HASHICORP_VAULT_SERVICE_TOKEN: 'HashiCorp Vault service token',
  HASHICORP_VAULT_BATCH_TOKEN: 'HashiCorp Vault batch token',
  HASHICORP_VAULT_RECOVERY_TOKEN: 'HashiCorp Vault recovery token',
  VERCEL_PERSONAL_ACCESS_TOKEN: 'Vercel personal access token',
  VERCEL_INTEGRATION_TOKEN: 'Vercel integration token',
  VERCEL_APP_ACCESS_TOKEN: 'Vercel app access token',
  VERCEL_APP_REFRESH_TOKEN: 'Vercel app refresh token',
  VERCEL_AI_GATEWAY_API_KEY: 'Vercel AI Gateway API key',
  DATABRICKS_PERSONAL_ACCESS_TOKEN: 'Databricks personal access token',
  DOCKER_PERSONAL_ACCESS_TOKEN: 'Docker Hub personal access token',
  FIGMA_PERSONAL_ACCESS_TOKEN: 'Figma personal access token',
  CLOUDFLARE_GLOBAL_API_KEY: 'Cloudflare global API key',
  CLOUDFLARE_USER_API_TOKEN: 'Cloudflare user API token',
  CLOUDFLARE_ACCOUNT_API_TOKEN: 'Cloudflare account API token',
  TAILSCALE_KEY: 'Tailscale key',
  TAILSCALE_API_KEY: 'Tailscale API key',
  TAILSCALE_AUTH_KEY: 'Tailscale auth key',
  TAILSCALE_CLIENT_KEY: 'Tailscale OAuth client secret',
  TAILSCALE_SCIM_KEY: 'Tailscale SCIM key',
  TAILSCALE_WEBHOOK_KEY: 'Tailscale webhook key',
};

/** GitHub's token kinds by prefix (the preset reports them all as GITHUB_TOKEN). */
const GITHUB_KINDS: readonly [string, string][] = [
  ['ghp_', 'GitHub personal access token'],
  ['github_pat_', 'GitHub fine-grained personal access token'],
  ['gho_', 'GitHub OAuth access token'],
  ['ghu_', 'GitHub user-to-server token'],
  ['ghs_', 'GitHub app installation token'],
  ['ghr_', 'GitHub refresh token'],
];

/** The kind of credential a preset finding is: "GitHub personal access token", else one made from its ids. */
export function presetKind(ruleId: string, messageId: string, matched: string): string {
  if (messageId === 'GITHUB_TOKEN')
    for (const [prefix, kind] of GITHUB_KINDS) if (matched.includes(prefix)) return kind;
  return PRESET_KINDS[messageId] ?? `${ruleId.replace(/^@secretlint\/secretlint-rule-/, '')} credential`;
}

/** Rules whose findings are passwords people choose (URLs): no entropy gate, the placeholder test only. */
const CHOSEN_PASSWORDS = new Set([
  '@secretlint/secretlint-rule-basicauth',
  '@secretlint/secretlint-rule-database-connection-string',
]);
/** Minimum entropy of a token's body (after its prefix), bits per character; gitleaks uses 3 for GitHub and Slack. */
const TOKEN_BODY_ENTROPY = 3;

export function presetEntropy(ruleId: string): number {
  return CHOSEN_PASSWORDS.has(ruleId) ? 0 : TOKEN_BODY_ENTROPY;
}

/** The part of a token after the prefix its rule looks for (`ghp_`, `sk_live_`), or the whole value. */
export function tokenBody(ruleId: string, value: string): string {
  let longest = '';
  for (const needle of PRESET_NEEDLES[ruleId] ?? [])
    if (typeof needle === 'string' && needle.length > longest.length && value.startsWith(needle)) longest = needle;
  return value.slice(longest.length);
}
