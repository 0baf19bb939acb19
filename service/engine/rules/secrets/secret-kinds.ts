// The `secret` rule's page lists what it recognises and what it leaves out, made from the same
// data the rule runs on (the credential formats, secretlint's preset table, the allowlists), so
// that the page cannot drift from the rule.
import { CREDENTIAL_FORMATS } from './formats.ts';
import { PRESET_KINDS } from './preset-needles.ts';

const sorted = (kinds: Iterable<string>): string[] =>
  [...new Set(kinds)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

/** Markdown sections for docs/rules/secret.md: the kinds recognised, and what is excluded. */
export function secretKindsMarkdown(): string {
  const shaped = sorted([
    ...CREDENTIAL_FORMATS.filter((format) => !format.generic).map((format) => format.kind),
    ...Object.values(PRESET_KINDS),
    'GitHub personal access token',
    'GitHub fine-grained personal access token',
    'GitHub OAuth access token',
    'GitHub app installation token',
    'credential in a Kubernetes Secret',
    'Kubernetes user credential in a kubeconfig',
    'PostgreSQL password (.pgpass)',
  ]);
  const byName = sorted(CREDENTIAL_FORMATS.filter((format) => format.generic).map((format) => format.kind));
  // Formats that share one allowlist (the generic names' public values) are listed once.
  const allowlists = new Map<string, string[]>();
  for (const format of CREDENTIAL_FORMATS) {
    if (!format.allowlist) continue;
    const values = `${format.allowlist.regexes.map((regex) => `\`${regex.source}\``).join(', ')}${format.allowlist.target === 'match' ? ' (in the whole match)' : ''}`;
    allowlists.set(values, [...(allowlists.get(values) ?? []), format.id]);
  }
  const allowlisted = [...allowlists].map(
    ([values, ids]) => `  - ${ids.map((id) => `\`${id}\``).join(', ')}: ${values}`,
  );
  return [
    '## What it recognises',
    '',
    `${shaped.length} kinds of credential by their shape (a prefix, a checksum-like body, the place they stand in), whatever they are called:`,
    '',
    shaped.join(' · '),
    '',
    `By the name they are assigned to (a literal value, quoted in code, also bare in YAML, properties, TOML, INI, .env files, shell scripts, Dockerfiles, logs and .txt notes; as the text of an XML element named for it): ${byName.join(', ')}. Private keys are \`no-private-key\`; .env files \`no-env-file\`.`,
    '',
    'A key named after a service is a name that ends in key after other words (CENSYS_KEY, stripeKey, azure_storage_key), none of them one that says the key finds a thing or is public (cache, primary, sort, partition, hash, site, public, gpg, search, …), with a random value of 20 characters or more that is not a UUID. A token may carry its scheme in its quotes (authToken = "Bearer …").',
    '',
    '## What it does not report',
    '',
    '- Placeholders: example, sample, dummy, fake, changeme, placeholder, redacted, your-…, insert-…, xxxx, `***`, `…`, `<…>`, `[…]` (in a value longer than 128 characters, twice: once is chance in the base64 of a long key); runs of one character or counting runs (123456, abcdef), and letters and digits counted in turns (a1B2c3D4…, abc123def456…: seven in order in the letters or in the digits alone, within 14 characters, in a value of 128 or fewer); values of four or fewer distinct characters; token bodies that repeat a unit of one to four characters (ghp_1234…1234); token bodies of too little entropy (secretlint findings: 3 bits a character after the prefix; each format has its own gate).',
    '- References to where the secret lives: `${VAR}`, `${{ secrets.X }}`, `{{ … }}`, `%VAR%`, ENV[…], os.environ, os.getenv, process.env, System.getenv, secretKeyRef, `vault:`, AWS Secrets Manager ARNs, `!Ref`/`!Sub`.',
    "- URLs whose user and password are placeholder words (https://user:token@host), and passwords that are defaults, labels, paths or format strings; the same for the user:password of a Basic header, a Docker config's `auth` and a .pgpass line.",
    "- Samples published for everyone to copy: AWS's (they carry EXAMPLE), RFC 7617's Basic credentials, the token jwt.io opens with, the test key of Stripe's API reference, and the Supabase CLI's local keys (issuer supabase-demo).",
    "- Values that fail the checksum or structure their provider builds into every one it issues (checked offline, never by asking the provider): GitHub's classic tokens and npm's (CRC-32 of the random part), PyPI's (a macaroon for pypi.org), age's secret keys (Bech32), Grafana's API keys and Sentry's organization tokens (base64 JSON), JWTs (a JSON header naming its algorithm). In documentation such a value is an example and is not reported; elsewhere it is reported, saying that its checksum does not hold, since it is most likely made up.",
    '- JWTs that have expired or carry no signature (alg none), and values under a name that says they are public (publicToken, PUBLISHABLE_KEY, NEXT_PUBLIC_…).',
    '- Templates: `*.example`, `*.sample`, `*.template`, `*.tmpl`, `*.tpl`, `*.dist` files.',
    '- In documentation (Markdown, reStructuredText, AsciiDoc, notebooks, README/CHANGELOG-like `.txt` files and `.txt` under docs/): values known by a generic name only (a password, a secret or token, a password parameter of a connection string, curl -u, an Authorization header), which are examples there. Credentials with a shape of their own (a vendor prefix, a structure, a URL with a password, a private key block) or the name of a provider with a value of its form are reported there too.',
    '- In tests and fixtures: values known by a generic name only, values assigned to a fake-sounding name (fakeToken, dummyKey, exampleSecret), and source code quoted in a test string. Provider tokens are reported there too.',
    "- Public values, by each format's allowlist:",
    ...allowlisted,
  ].join('\n');
}
