// Credential shapes gitleaks detects that the engine once missed (each under a neutral name, so
// that only the shape can find it), private keys inline in strings, connection URLs of any
// scheme, and the gates that keep placeholders out: periodic bodies, low entropy, public values.
import { describe, expect, it } from 'vitest';
import { checksummedToken } from '../../../fixtures/secrets/tokens.ts';
import { findings } from '../review-helpers.ts';

const HEX32 = '3f9a0c7e5b1d4f2a8c6e0b9d7f1a3c5e';
const B64 = 'Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0aE2iU7oX9qMk3Lz5Wn8Rt0Yp2Hs4Dj6Fg';
const uuid = '4f1c2b3a-9d8e-4a7b-a6c5-1e2d3f4a5b6c';
const PASSWORD = 'Kq7vXz9Lm2Rt!';
/** An Azure Functions key as Azure generates them: base64 of 40 bytes. */
const FUNCTION_KEY = `575YX8XM5mSLFy5UBIHEYeD7p4Zdl/AK6j0KgodkDINzNlxICAbaG8==`;

/** The messages of the `secret`-family findings (secret, no-private-key) on each line. */
async function secretMessages(path: string, lines: string[]): Promise<string[]> {
  return (await findings(path, lines))
    .filter((f) => f.rule_id === 'secret' || f.rule_id === 'no-private-key')
    .map((f) => `${f.line}: ${f.message}`);
}

describe('secret: shapes found without a provider name', () => {
  it.each([
    ['AWS access key id', 'src/a.py', `key_id = "ABIA${'QWERTZUIOPASDFGH'.replace(/[IO]/g, 'K')}"`],
    ['AWS access key id', 'src/a.py', 'key_id = "ACCA7KQ2MZ5XW3RT4LPN"'],
    ['Amazon Bedrock API key', 'src/a.py', `v = "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${B64}${B64}"`],
    ['Azure AD client secret', 'src/a.ts', `const v = "Xy18Q~${B64.slice(0, 34)}";`],
    [
      'Microsoft Teams webhook URL',
      'src/t.ts',
      `const u = "https://acme.webhook.office.com/webhookb2/${uuid}@${uuid}/IncomingWebhook/${HEX32}/${uuid}/V2${B64.slice(0, 46)}";`,
    ],
    ['GitLab OAuth application secret', 'src/a.rb', `v = "gloas-${B64.slice(0, 64)}"`],
    ['Harness API key', 'ci/a.sh', `export H=pat.${B64.slice(0, 22)}.${B64.slice(22, 46)}.${B64.slice(0, 20)}`],
    ['MaxMind license key', 'Dockerfile', `ENV LICENSE_KEY=Ab3dE5_${B64.slice(0, 29)}_mmk`],
    [
      'Authress service client access key',
      'src/a.ts',
      `const k = "sc_k8j2h5g9f1.d4s7a.acc_6q3w0e8r2t5y9u1i.${B64.slice(0, 60)}";`,
    ],
    ['Twilio API key', 'src/a.py', `client = Client("SK${HEX32}", secret, sid)`],
    ['Slack legacy token', 'src/a.py', `v = "xoxs-4817293056-9063718254-730591846273-${HEX32}${HEX32}"`],
    ['Slack workspace token', 'src/a.py', `v = "xoxr-${B64.slice(0, 40)}"`],
    ['Slack user token', 'src/a.py', `v = "xoxe-48172930561-90637182549-730591846273-${HEX32}"`],
    [
      'Slack webhook URL',
      'src/a.py',
      'U = "https://hooks.slack.com/workflows/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"',
    ],
    ['Slack webhook URL', 'src/a.py', `U = "https://hooks.slack.com/triggers/T0A1B2C3D4E/7305918462739/${HEX32}"`],
    ['Flutterwave encryption key', 'src/a.js', 'const k = "FLWSECK_TEST-3f9a0c7e5b1d";'],
    [
      'credential in a curl header',
      'ci/a.sh',
      `curl -H "Authorization: Bearer ${B64.slice(0, 40)}" https://api.acme.io`,
    ],
    ['credential in a curl header', 'ci/a.sh', `curl --header 'X-Api-Key: ${B64.slice(0, 40)}' https://api.acme.io`],
    ['credential in a curl header', 'ci/a.sh', `curl -H "X-Octopus-ApiKey: ${B64.slice(0, 32)}" https://deploy.corp`],
    [
      'credential in a curl header',
      'ci/a.sh',
      `curl -X POST --header "Api-Token: ${B64.slice(0, 24)}" https://api.acme.io`,
    ],
    [
      'credential in a curl header',
      'ci/a.sh',
      `curl -H"Authorization: Bearer ${B64.slice(0, 40)}" https://api.acme.io`,
    ],
    ['password on a curl command line', 'ci/a.sh', `curl -u deploy:${PASSWORD} https://dav.internal/x`],
    ['NuGet feed password', 'NuGet.Config', `<add key="ClearTextPassword" value="${PASSWORD}" />`],
    [
      'Sidekiq Enterprise credential',
      '.github/workflows/ci.yml',
      '  BUNDLE_ENTERPRISE__CONTRIBSYS__COM: 3f9a0c7e:5b1d4f2a',
    ],
    [
      'Azure shared access signature',
      '.env',
      `BLOB_SAS=sp=rl&st=2026-11-01T08:00:00Z&se=2027-11-01T08:00:00Z&spr=https&sv=2022-11-02&sr=c&sig=${encodeURIComponent(`${B64.slice(0, 43)}=`)}`,
    ],
    ['Azure AD (Entra ID) refresh token', 'notes.txt', `0.A${B64.slice(0, 48)}.AgABAAAAAAD--${B64}`],
    [
      'Power Automate (Teams workflow) trigger URL',
      'config/alerts.yml',
      `  url: https://default${HEX32}.62.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/${HEX32}/triggers/manual/paths/invoke?api-version=1&sv=1.0&sig=${B64.slice(0, 43)}`,
    ],
    [
      'Azure Logic Apps (Teams workflow) trigger URL',
      'config/alerts.yml',
      `  url: https://prod-27.westeurope.logic.azure.com:443/workflows/${HEX32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${B64.slice(0, 43)}`,
    ],
    [
      'Azure Logic Apps (Standard) trigger URL',
      'config/alerts.yml',
      `  url: https://orders-la.azurewebsites.net:443/api/intake/triggers/manual/invoke?api-version=2022-05-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${B64.slice(0, 43)}`,
    ],
    [
      'Azure Functions key in a function URL',
      'src/client.ts',
      `const url = "https://orders-fn.azurewebsites.net/api/CreateOrder?code=${FUNCTION_KEY}";`,
    ],
    [
      'Azure Functions key in a function URL',
      'config/app.yml',
      `  orders: https://orders-fn.azurewebsites.net/api/orders/create?clientId=web&code=${encodeURIComponent(FUNCTION_KEY)}`,
    ],
    [
      'npm registry auth token',
      'scripts/publish.sh',
      `printf '//registry.npmjs.org/:_authToken = ${uuid}\\n' >> .npmrc`,
    ],
    ['npm registry auth token', 'Dockerfile', `RUN echo "//registry.npmjs.org/:_authToken=${uuid}" > ~/.npmrc`],
    [
      'npm registry auth token',
      '.github/workflows/release.yml',
      `      - run: npm config set //registry.npmjs.org/:_authToken ${uuid}`,
    ],
    [
      'npm registry auth token',
      'package.json',
      `  "prepublishOnly": "echo \\"//registry.npmjs.org/:_authToken=${uuid}\\" > .npmrc",`,
    ],
    [
      'Tines webhook URL',
      'config/alerts.yml',
      `  url: https://acme.tines.com/webhook/${HEX32}/${HEX32.split('').reverse().join('')}`,
    ],
    ['Amazon MWS auth token', 'config/seller.yml', '  mws: amzn.mws.9c4e7a1f-3b8d-4e2a-b6f0-5d9c2e7a4b1f'],
    ['AWS AppSync API key', 'src/aws-exports.js', '  aws_appsync_apiKey: "da2-k3v9x2m7q4w8z1n5b6c0r2t7yp",'],
    ['AWS session token', '.env', `AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE//////////wEaCXVzLWVhc3QtMSJH${B64}${B64}`],
    ['Kolide API key', 'ci/a.sh', `export KOLIDE=k2sk_v1_${B64.slice(0, 24)}`],
    ['Zoho OAuth token', 'src/crm.ts', `const token = "1000.${HEX32}.${HEX32.split('').reverse().join('')}";`],
  ])('%s: %s', async (kind, path, line) => {
    const messages = await secretMessages(path, [line]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(kind);
  });

  it('leaves the look-alikes of the signed URLs and tokens alone', async () => {
    for (const line of [
      // a signature that is no SAS (no service version beside it)
      `const url = "https://hooks.example.com/in?id=42&sig=${HEX32}${HEX32}";`,
      // a workflow URL without its signature, a Tines URL with no secret path, a version number
      `URL=https://default${HEX32}.62.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/${HEX32}/triggers/manual/paths/invoke?api-version=1`,
      'TINES_URL=https://acme.tines.com/webhook/',
      `URL=https://prod-27.westeurope.logic.azure.com:443/workflows/${HEX32}/triggers/manual/paths/invoke?api-version=2016-06-01`,
      // an .npmrc line that reads the token from the environment, or holds a placeholder
      'NPMRC=//registry.npmjs.org/:_authToken=${NPM_TOKEN}',
      'NPMRC=//registry.npmjs.org/:_authToken=$NPM_TOKEN',
      'NPMRC=//registry.npmjs.org/:_authToken=00000000-0000-0000-0000-000000000000',
      'NPMRC=//registry.npmjs.org/:_authToken=<your-npm-token>',
      // a function URL without its key, with the key read from elsewhere, and an OAuth code (no ==)
      'FN_URL=https://orders-fn.azurewebsites.net/api/CreateOrder',
      'FN_URL=https://orders-fn.azurewebsites.net/api/CreateOrder?code=${FUNCTION_KEY}',
      `CALLBACK=https://orders.azurewebsites.net/api/login?code=4/0AfJohX${B64.slice(0, 40)}`,
      // a variable's name, not its value
      'NPMRC=//npm.pkg.github.com/:_authToken=GITHUB_PACKAGES_TOKEN',

      `BUILD=1000.${HEX32}`,
      'VERSION=0.Alpha.AgAB',
      // a word that starts as a key does, too short to be one
      'APPSYNC_STAGE=da2-staging',
      'SESSION=IQoJb3JpZ2luX2Vj',
    ])
      expect(await secretMessages('.env', [line]), line).toEqual([]);
  });

  it('leaves a token with a prefix of its own on an .npmrc line to its own format (its name, its checksum)', async () => {
    const github = checksummedToken('ghp_', 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5s');
    const [message] = await secretMessages('Dockerfile', [
      `RUN echo "//npm.pkg.github.com/:_authToken=${github}" > .npmrc`,
    ]);
    expect(message).toContain('A GitHub personal access token was added');
  });

  it('writes the article as the kind is said: an npm token, an NVIDIA key, an ngrok authtoken, a OneSignal key, a Kolide key', async () => {
    const [npm] = await secretMessages('Dockerfile', [`RUN echo "//registry.npmjs.org/:_authToken=${uuid}" > .npmrc`]);
    expect(npm).toContain(': An npm registry auth token was added');
    const [nvidia] = await secretMessages('src/a.py', [`k = "nvapi-${B64.slice(0, 64)}"`]);
    expect(nvidia).toContain(': An NVIDIA API key was added');
    const [ngrok] = await secretMessages('ci/a.sh', [
      `export NGROK_AUTHTOKEN=${B64.slice(0, 26)}_${B64.slice(30, 51)}`,
    ]);
    expect(ngrok).toContain(': An ngrok authtoken was added');
    const base32 =
      'ujzdegxdncf32epf3dhodzdocis2jhtlgmxgedn73u55xtplpft7v4seh2kvj72ceuvw75efr6edt4sywb5wkh7dnsipzz7fk4zri3r';
    const [onesignal] = await secretMessages('src/push.ts', [`const k = "os_v2_app_${base32}";`]);
    expect(onesignal).toContain(': A OneSignal API key was added');
    const [kolide] = await secretMessages('ci/a.sh', [`export KOLIDE=k2sk_v1_${B64.slice(0, 24)}`]);
    expect(kolide).toContain(': A Kolide API key was added');
  });

  it('does not read a curl header or user from a variable, or a header outside a curl command', async () => {
    expect(await secretMessages('ci/a.sh', ['curl -H "Authorization: Bearer $TOKEN" https://api.acme.io'])).toEqual([]);
    expect(await secretMessages('ci/a.sh', ['curl -u "deploy:${PASSWORD}" https://dav.internal/x'])).toEqual([]);
    expect(await secretMessages('src/a.ts', [`headers.set("X-Api-Key: ${B64.slice(0, 40)}");`])).toEqual([]);
    // a header whose name is no credential's
    expect(await secretMessages('ci/a.sh', ['curl -H "X-Auth-Email: ops.team-7@acme.io" https://api.acme.io'])).toEqual(
      [],
    );
  });

  it('reads a Kubernetes Secret parsed, in any YAML file: flow maps, quoted values, stringData, each document', async () => {
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const url = `postgres://app:${PASSWORD}@db:5432/app`;
    const lines = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'data:',
      `  DATABASE_URL: ${b64(url)}`,
      '---',
      'apiVersion: v1',
      'kind: Secret',
      'metadata: { name: app }',
      `data: { DATABASE_URL: "${b64(url)}", LOG_LEVEL: ${b64('debug-verbose')} }`,
      'stringData:',
      `  password: "${PASSWORD}"`,
      '  username: app',
      '  FEATURE_FLAGS: flag-a,flag-b,beta',
      '  # token: was here',
      '---',
      'kind: Secret',
      'stringData:',
      '  password: ${DB_PASSWORD}',
    ];
    const found = (await findings('deploy/app.yaml', lines)).filter((f) => f.rule_id === 'secret');
    expect(found.map((f) => `${f.line}: ${f.message.split(' was added')[0]}`)).toEqual([
      '9: secret: A connection URL with a password in a Kubernetes Secret',
      '11: secret: A credential in a Kubernetes Secret',
    ]);
    // the value is masked in the fingerprint: the finding's span is the value
    expect(lines[8]!.slice(found[0]!.start_column! - 1, found[0]!.end_column! - 1)).toBe(`"${b64(url)}"`);
  });

  it('reads the data of a Kubernetes Secret by decoding it, not a ConfigMap or a harmless value', async () => {
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const secret = ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: app', 'data:'];
    expect(
      await secretMessages('k8s/secret.yaml', [
        ...secret,
        `  DATABASE_URL: ${b64(`postgres://app:${PASSWORD}@db:5432/app`)}`,
        `  stripe-key: ${b64(`sk_live_${B64.slice(0, 40)}`)}`,
        `  LOG_LEVEL: ${b64('debug-verbose')}`,
      ]),
    ).toEqual([
      '6: secret: A connection URL with a password in a Kubernetes Secret was added; remove it, rotate it, and load it from the environment or a secret store.',
      '7: secret: A credential in a Kubernetes Secret was added; remove it, rotate it, and load it from the environment or a secret store.',
    ]);
    expect(
      await secretMessages('k8s/config.yaml', [
        'kind: ConfigMap',
        'data:',
        `  DATABASE_URL: ${b64(`postgres://app:${PASSWORD}@db/app`)}`,
      ]),
    ).toEqual([]);
  });
});

describe('secret: private keys inline in strings and JSON', () => {
  it('finds a PGP private key after a blank line or an armour header, in a string and in JSON', async () => {
    const body = `${B64}${B64}`;
    expect(
      await secretMessages('src/k.ts', [
        `const k = "-----BEGIN PGP PRIVATE KEY BLOCK-----\\n\\n${body}\\n-----END PGP PRIVATE KEY BLOCK-----";`,
      ]),
    ).toHaveLength(1);
    expect(
      await secretMessages('keys.json', [
        `{"k": "-----BEGIN PGP PRIVATE KEY BLOCK-----\\r\\nVersion: GnuPG v2\\r\\n\\r\\n${body}"}`,
      ]),
    ).toHaveLength(1);
    expect(await secretMessages('src/k.ts', ['const header = "-----BEGIN PGP PRIVATE KEY BLOCK-----\\n\\n";'])).toEqual(
      [],
    );
  });
});

describe('secret: connection URLs of any scheme', () => {
  it.each([
    'ftp',
    'ssh',
    'ldaps',
    'couchbase',
    'snowflake',
    'influxdb',
    's3',
    'rabbitmq',
    'redis+sentinel',
    'postgresql+psycopg2',
    'mysql+pymysql',
    'https',
  ])('%s://user:password@an.internal.host', async (scheme) => {
    expect(
      await secretMessages('config/app.py', [`URL = "${scheme}://app:${PASSWORD}@host.internal:1234/db"`]),
    ).toHaveLength(1);
  });

  it('keeps the password gate: placeholders, references and words are not passwords', async () => {
    for (const line of [
      'URL = "ftp://user:password@files.internal/in"',
      'URL = "snowflake://app:${SNOWFLAKE_PASSWORD}@acme/db"',
      'URL = f"postgresql+psycopg2://{user}:{password}@db/app"',
      'URL = "https://nexus.corp.internal:8443/repo"',
      'URL = "ssh://git@github.com:22/acme/app.git"',
    ])
      expect(await secretMessages('config/app.py', [line]), line).toEqual([]);
  });
});

describe('secret: placeholders among secretlint findings', () => {
  it.each([
    `const k = "ghp_${'1234'.repeat(9)}";`,
    `const k = "ghp_${'abcd'.repeat(9)}";`,
    `const k = "sk_live_${'1234'.repeat(7)}";`,
    `const k = "sk_live_${'ab'.repeat(14)}";`,
    `const k = "glpat-${'x1'.repeat(10)}";`,
    'const k = "xoxb-111111111111-111111111111-aaaaaaaaaaaaaaaaaaaaaaaa";',
    // letters and digits counted in turns: typed for a test, never issued
    'const k = "ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4";',
    'TWITCH_TOKEN = "abc123def456ghi789jkl012mno345"',
    'const key = "sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA";',
    'CLOZE_API_KEY = "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"',
    'ATLASSIAN_TOKEN = "aB1cD2eF3gH4iJ5kL6mN7oP8"',
    'const TOKEN = "z9y8x7w6v5u4t3s2r1q0p9o8n7m6l5";',
  ])('%s is not reported', async (line) => {
    expect(await secretMessages('src/a.ts', [line])).toEqual([]);
  });

  it('names the kind as the own formats do', async () => {
    const github = checksummedToken('ghp_', 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5s');
    expect(await secretMessages('src/a.ts', [`const k = "${github}";`])).toEqual([
      '1: secret: A GitHub personal access token was added; remove it, rotate it, and load it from the environment or a secret store.',
    ]);
    const [stripe] = await secretMessages('src/a.ts', [`const k = "sk_live_${B64.slice(0, 40)}";`]);
    expect(stripe).toContain('A Stripe live secret key was added');
  });
});

describe('secret: what a password is called', () => {
  it('says "a password" for DB_PASSWORD= and keeps "in a connection string" for connection strings', async () => {
    expect(await secretMessages('scripts/db.sh', [`export DB_PASSWORD="${PASSWORD}"`])).toEqual([
      '1: secret: A password was added; remove it, rotate it, and load it from the environment or a secret store.',
    ]);
    const [jdbc] = await secretMessages('src/Db.java', [
      `String url = "jdbc:mysql://db/app?user=app&password=${PASSWORD}";`,
    ]);
    expect(jdbc).toContain('A password in a connection string');
  });
});

describe('secret: per-format allowlists', () => {
  it('does not report public values: a search-only Algolia key, a Datadog client token, a Mapbox public token', async () => {
    expect(
      await secretMessages('web/search.ts', [`const algoliaSearchKey = "k8j2h5g9f1d4s7a6q3w0e8r2t5y9u1i7";`]),
    ).toEqual([]);
    expect(await secretMessages('web/rum.ts', [`  clientToken: "pub${HEX32}",`])).toEqual([]);
    expect(
      await secretMessages('web/search.ts', [`const algoliaAdminKey = "k8j2h5g9f1d4s7a6q3w0e8r2t5y9u1i7";`]),
    ).toHaveLength(1);
  });
});

describe('secret: bare values in shell and Dockerfiles, camelCase names, plain-text files', () => {
  it('reads export NAME=value, ENV NAME=value and .netrc passwords', async () => {
    expect(await secretMessages('scripts/deploy.sh', [`export API_TOKEN=${B64.slice(0, 40)}`])).toHaveLength(1);
    expect(await secretMessages('Dockerfile', [`ENV API_KEY=${B64.slice(0, 40)}`])).toHaveLength(1);
    expect(await secretMessages('.netrc', [`machine api.acme.io login deploy password ${PASSWORD}`])).toHaveLength(1);
    expect(
      await secretMessages('scripts/deploy.sh', [
        'export API_TOKEN=$(cat /run/secrets/token)',
        'export DB_PASSWORD="${DB_PASSWORD:-}"',
        'TOKEN_FILE=/run/secrets/token',
      ]),
    ).toEqual([]);
  });

  it('reads a literal assigned to a camelCase name, not one read from elsewhere', async () => {
    expect(await secretMessages('src/x.ts', [`const apiKey = "${B64.slice(0, 40)}";`])).toHaveLength(1);
    expect(await secretMessages('src/x.ts', [`const clientSecret = '${B64.slice(0, 40)}';`])).toHaveLength(1);
    expect(await secretMessages('src/x.ts', [`const token = "${B64.slice(0, 40)}";`])).toHaveLength(1);
    expect(await secretMessages('src/x.ts', ['this.token = "Bearer";', 'let token = "";'])).toEqual([]);
    expect(await secretMessages('src/x.ts', ['const apiKey = "x-api-key";', 'const clientSecret = "";'])).toEqual([]);
  });

  it('reads .txt files other than documentation, and short prefixes at the start of a line', async () => {
    const gcp = `AIza${B64.slice(0, 35)}`;
    expect(await secretMessages('deploy/token.txt', [`ghp_kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u`])).toHaveLength(1);
    expect(await secretMessages('deploy/keys.txt', [gcp])).toEqual([
      '1: secret: A Google API key was added; remove it, rotate it, and load it from the environment or a secret store.',
    ]);
    expect(await secretMessages('config/keys.yml', [gcp])).toHaveLength(1);
    // documentation is read for credentials with a shape of their own (issue 23)
    expect(await secretMessages('docs/setup.txt', [gcp])).toHaveLength(1);
    expect(await secretMessages('CHANGELOG.txt', [gcp])).toHaveLength(1);
    expect(await secretMessages('docs/setup.txt', ['api_key: 4f9a1b7c3d5e8f2a6b0c4d9e1f7a3b5c'])).toEqual([]);
    expect(await secretMessages('requirements.txt', ['requests==2.32.3', 'fastapi>=0.110'])).toEqual([]);
  });
});

describe('secret: its page lists what it recognises and what it leaves out', () => {
  it('names every kind of the formats, from the same data', async () => {
    const { readFileSync } = await import('node:fs');
    const { CREDENTIAL_FORMATS } = await import('../../../../service/engine/rules/secrets/formats.ts');
    const page = readFileSync(new URL('../../../../docs/rules/secret.md', import.meta.url), 'utf8');
    for (const format of CREDENTIAL_FORMATS) expect(page, format.id).toContain(format.kind);
    expect(page).toContain('## What it does not report');
    expect(page).toContain('`algolia-api-key`: `search`');
  });
});

describe('secret: no rule turns the keyword pre-filter off for ordinary files', () => {
  it('keeps the pre-filter for YAML, shell, Dockerfiles, text and code (a rule without keywords reads every line)', async () => {
    const { Planner, activateRules } = await import('../../../../service/engine/plan.ts');
    const { ALL_RULES } = await import('../../../../service/engine/rules/index.ts');
    const planner = new Planner(activateRules(ALL_RULES, undefined), true);
    for (const path of [
      'k8s/deploy.yaml',
      '.github/workflows/ci.yml',
      'scripts/deploy.sh',
      'Dockerfile',
      'deploy/token.txt',
      'src/a.ts',
      'app/main.py',
      'k8s/db-secret.yaml', // a Kubernetes Secret is read parsed, not line by line
    ])
      expect(planner.planFor(path).everyLine, path).toBe(false);
    // Files that are read whole by design: .env files.
    expect(planner.planFor('.env').everyLine).toBe(true);
  });
});
