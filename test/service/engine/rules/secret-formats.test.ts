// The engine's own credential formats (service/engine/rules/secrets/): what counts as a leak and
// what is a placeholder, a reference or a public value; messages name the kind, never the value;
// fingerprints mask the value; .env files are reported on the lines that hold values.
import { describe, expect, it } from 'vitest';
import { findings } from '../review-helpers.ts';

const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object): string =>
  `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0aE2iU7oX9qM`;
const HEX64 = 'a3f19c07d2b84e6f5a1c9e0d7b3f28c4e6a9d1f0b7c2e5a8d3f6b9c0e1a4d7f2';

const secretLines = async (path: string, lines: string[]): Promise<number[]> =>
  (await findings(path, lines)).filter((f) => f.rule_id === 'secret').map((f) => f.line);

describe('no-env-file', () => {
  it('reports one problem once: on the first line that holds a value, saying how many do', async () => {
    const found = await findings('.env', [
      '# local settings',
      '',
      'DB_PASSWORD=Vd83kLq2Xz9p!',
      'EMPTY=',
      'FROM_ELSEWHERE=${SHARED_SECRET}',
      'export PORT=3000',
    ]);
    const envFile = found.filter((f) => f.rule_id === 'no-env-file');
    expect(envFile.map((f) => f.line)).toEqual([3]);
    expect(envFile[0]!.message).toMatch(/2 lines of this file hold values\.$/);
    // one line: no count
    const single = await findings('.env.production', ['API_URL=https://api.example.com']);
    expect(single.map((f) => f.message)).toEqual([expect.not.stringMatching(/lines of this file/)]);
  });

  it("does not report a test app's .env file or a template", async () => {
    expect(await findings('tests/test_apps/.env', ['FOO=env'])).toEqual([]);
    expect(await findings('.env.example', ['DB_PASSWORD=changeme'])).toEqual([]);
  });
});

describe('secret: placeholders, references and public values are not secrets', () => {
  it.each([
    ['src/billing.ts', 'const stripe = new Stripe("sk_live_xxxxxxxxxxxxxxxxxxxxxxxxxxxx");'],
    ['src/billing.ts', 'const stripe = new Stripe("sk_live_XXXXXXXXXXXXXXXXXXXXXXXXXXXX");'],
    ['config/app.yml', 'api_key: <your-api-key-here>'],
    ['config/app.yml', 'password: ${DB_PASSWORD}'],
    ['.github/workflows/ci.yml', '  token: ${{ secrets.NPM_TOKEN }}'],
    ['k8s/deploy.yaml', '      secretKeyRef:'],
    ['app/config.py', 'password = os.environ["DB_PASSWORD"]'],
    ['config/database.rb', 'password: ENV["DB_PASSWORD"],'],
    ['src/db.ts', 'const password = process.env.DB_PASSWORD;'],
    ['config/app.yml', 'secret: 0000000000000000000000000000000000000000'],
    ['src/app.py', 'API_KEY = "1234567890abcdef1234567890abcdef"'],
    ['src/aws.ts', 'const SECRET_NAME = "prod-db-credentials-2";'],
    ['src/auth.ts', 'const PASSWORD_RESET_TOKEN_TTL = "3600";'],
    ['web/supabase.ts', `const supabase = createClient(url, "${jwt({ role: 'anon', iss: 'supabase' })}");`],
    [
      'web/checkout.ts',
      'const stripe = loadStripe("pk_live_51H8Jd2KqR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2uM4nW7qZ1tK8yXc3Vb6Nm9Lk");',
    ],
    // a name that says the value is public, and a word after a Vault token's prefix
    ['web/config.ts', 'const publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit";'],
    ['config/web.yml', 'NEXT_PUBLIC_API_KEY: Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0'],
    ['ops/notes.txt', 'vault: s.makeKubeConfigController = args'],
    // documentation: a value known by its name only is an example there
    ['docs/setup.md', 'export DB_PASSWORD=Vd83kLq2Xz9pRt'],
    ['docs/setup.md', 'export GITHUB_TOKEN=<YOUR_TOKEN>'],
    ['.env.sample', `WEBHOOK_SECRET=${HEX64}`],
    // letters only: words (a camel-case name, a phrase) are full of vowels
    ['config/app.env', 'SECRET_KEY=ThisIsNotARealSecretKeyAtAll'],
    ['config/app.env', 'API_TOKEN=XMLHttpRequestUploadHandler'],
    ['config/app.env', 'AUTH_TOKEN=SomeVeryLongPlaceholderTokenValue'],
    ['config/app.env', 'SESSION_SECRET=abcdefghijklmnopqrstuvwxyzABCDEF'],
  ])('%s: %s', async (path, line) => {
    expect(await secretLines(path, [line])).toEqual([]);
  });
});

describe('secret: a random key under its name, letters only', () => {
  // a random 22-character key of letters and digits has no digit about 1 time in 50 (43 characters: 1 in ~1,900)
  it.each([
    ['config/app.env', 'CODEMAGIC_TOKEN=PSIYbVgfkbEPQoqJfzHpACTtihONkQ_cKmOpNDPNiCU'],
    ['config/app.yml', 'bannerbear_token: yvxpthLIcYpZweFpPOVeCOtt'],
    ['src/settings.py', 'PROXYCRAWL_TOKEN = "wjXKCFzOWEPRqhTmmbWtVQ"'],
  ])('%s: %s', async (path, line) => {
    expect(await secretLines(path, [line])).toEqual([1]);
  });
});

describe('secret: a key named after a service', () => {
  // `key` ends a name of more words, none of which says the key finds a thing or is public
  it.each([
    ['config/app.yml', '  censys_key: "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['.env.production', 'AZURE_OPENAI_KEY=7c1e9a4f2b8d6e0a3c5f7b9d1e2a4c6f'],
    ['src/settings.py', 'MAILGUN_KEY = "q3Vz8Lw2Nk5Rt7Yp1Hs4Jd6Fg9Bx0Cm2Ea"'],
    ['app/client.go', 'apimaticKey := "Xk29dLq7Vz3Tn8Rw4Pm6Jb1Hc5Gf0Sa2Ye"'],
    ['src/config.json', '  "weatherapi_key": "fN4kT8wQ2zR6vL1xP9mJ3hB7cD5gS0aY",'],
    ['src/Settings.java', '    String stripeKey = "Hc5Gf0Sa2YeXk29dLq7Vz3Tn8Rw4Pm6Jb1";'],
  ])('%s: %s', async (path, line) => {
    expect(await secretLines(path, [line])).toEqual([1]);
  });

  it('reads a bare value as the run after the first name: each line, each review, on its own', async () => {
    const line = 'GEOCODIO_KEY=Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV';
    // the same line twice in a file, and the same file reviewed again by the same engine
    expect(await secretLines('config/app.env', [line, line])).toEqual([1, 2]);
    expect(await secretLines('config/app.env', [line, line])).toEqual([1, 2]);
    // names inside a value are part of it; a value too long, or followed by more than a comment, is none
    expect(await secretLines('config/app.env', [`A_KEY=${'B_KEY='.repeat(1000)}`])).toEqual([]);
    expect(await secretLines('config/app.env', [`${line}  # rotated 2026-11`, `${line} and more`])).toEqual([1]);
  });

  it.each([
    // a lookup's key, a public key, a fingerprint, a made-up key
    ['config/app.yml', '  cache_key: "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['src/models.py', 'primaryKey = "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['config/app.yml', '  recaptcha_site_key: 6Lc9xR2vK9pLxD4sZ8yN3cF6hJ1dG5bVqW7TnR'],
    ['web/push.ts', 'const vapidPublicKey = "BEl62iUYgUivxIkv69yViEuiBIa40HI80NM9Lw7d";'],
    ['Dockerfile', 'ENV GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D'],
    ['src/fixtures.py', 'DUMMY_KEY = "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    // key is a word of its own, or the end of another word
    ['src/app.py', 'key = "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['src/zoo.py', 'monkey = "Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['config/zoo.env', 'MONKEY=Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV'],
    // not random, too short, a UUID (a tenant, a correlation), a path
    ['config/app.yml', '  translation_key_prefix: home.title.welcome'],
    ['config/app.env', 'SEGMENT_KEY=Wq7TnR2vK9pLx'],
    ['config/app.yml', '  tenant_key: 6f1d3c2a-9b8e-4f7a-a5d4-3c2b1a0f9e8d'],
    ['config/app.yml', '  tls_key: /etc/ssl/private/server-2048.key'],
    // a name of words (a word may end in digits), a resource's name (most of its segments are words)
    ['src/views.py', "_CSRF_KEY = 'shop_oauth2_csrf_token'"],
    ['src/Tls.java', 'String PEER_CERTIFICATE_KEY = "jakarta.servlet.request.X509Certificate";'],
    ['src/cli.py', "  --kms-key='projects/shop/locations/eu-west1/keyRings/web-ring/cryptoKeys/db-key'"],
    ['src/cli.py', "  --tls-client-key='projects/271/secrets/broker-key/versions/3'"],
  ])('is quiet on %s: %s', async (path, line) => {
    expect(await secretLines(path, [line])).toEqual([]);
  });
});

describe('secret: the text of an XML element named for a credential', () => {
  it('reports a Maven server password and an API key, not an encrypted or referenced one', async () => {
    const lines = [
      '<settings>',
      '  <servers>',
      '    <server>',
      '      <id>releases</id>',
      '      <password>Vd83kLq2Xz9p!</password>',
      '      <password>{COQLCE6DU6GtcS5P=}</password>',
      '      <password>${env.NEXUS_PASSWORD}</password>',
      '    </server>',
      '  </servers>',
      '  <weatherApiKey>fN4kT8wQ2zR6vL1xP9mJ3hB7cD5gS0aY</weatherApiKey>',
      '  <publicToken>fN4kT8wQ2zR6vL1xP9mJ3hB7cD5gS0aY</publicToken>',
      '  <db.password>changeit</db.password>',
      '</settings>',
    ];
    expect(await secretLines('.m2/settings.xml', lines)).toEqual([5, 10]);
    // elements are read in XML files only; a test's XML is test data
    expect(await secretLines('docs/settings.md', lines)).toEqual([]);
    expect(await secretLines('src/test/resources/settings.xml', lines)).toEqual([]);
  });

  it('is quiet on an element whose name only ends in the word', async () => {
    expect(await secretLines('app.config', ['<passwordPolicy>Vd83kLq2Xz9p!</passwordPolicy>'])).toEqual([]);
    expect(await secretLines('app.config', ['<password>Vd83kLq2Xz9p!'])).toEqual([]);
  });
});

describe('secret: a token that carries its Authorization scheme', () => {
  it.each([
    ['config/app.yml', '  calendly_auth_token: "Bearer Wq7TnR2vK9pLxD4sZ8yN3cF6hJ1dG5bV"'],
    ['app/client.go', 'bannerbearToken := "Bearer Xk29dLq7Vz3Tn8Rw4Pm6Jb1H"'],
    ['src/api.ts', 'const authToken = "Token Hc5Gf0Sa2YeXk29dLq7Vz3Tn8Rw4";'],
  ])('%s: %s', async (path, line) => {
    expect(await secretLines(path, [line])).toEqual([1]);
  });

  it('is quiet on a scheme before a reference or a placeholder', async () => {
    expect(await secretLines('src/api.ts', ['const authToken = "Bearer ${TOKEN}";'])).toEqual([]);
    expect(await secretLines('config/app.yml', ['  auth_token: "Bearer YOUR_TOKEN_HERE_1234"'])).toEqual([]);
  });
});

describe("secret: the engine's formats", () => {
  it('names the kind of credential and never the value', async () => {
    const token = `dop_v1_${HEX64}`;
    const [finding] = await findings('infra/do.tf', [`token = "${token}"`]);
    expect(finding?.rule_id).toBe('secret');
    expect(finding!.message).toBe(
      'secret: A DigitalOcean personal access token was added; remove it, rotate it, and load it from the environment or a secret store.',
    );
    expect(finding!.message).not.toContain(token.slice(-12));
  });

  it('prefers the named kind to a generic name on the same line', async () => {
    const [finding] = await findings('src/ai.py', [
      `API_KEY = "pplx-${'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2uM4nW7qZ1tK8y'}"`,
    ]);
    expect(finding!.message).toContain('Perplexity API key');
  });

  it("knows a provider's name in a Capitalised spelling too", async () => {
    const [finding] = await findings('src/deploy.ts', ['const HerokuApiKey = "5f0c3b2e-9a7d-4e1b-8c6f-2d4a9e7b1c30";']);
    expect(finding!.message).toContain('Heroku API key');
  });

  it('reports a JWT that grants a privileged role', async () => {
    const lines = [`const admin = createClient(url, "${jwt({ role: 'service_role', iss: 'supabase' })}");`];
    expect((await findings('src/admin.ts', lines))[0]?.message).toContain('JSON Web Token with a privileged role');
  });

  it('keeps the fingerprint when only the secret changes', async () => {
    const [a] = await findings('src/hooks.ts', [`const WEBHOOK_SECRET = "${HEX64}";`]);
    const [b] = await findings('src/hooks.ts', [`const WEBHOOK_SECRET = "${[...HEX64].reverse().join('')}";`]);
    expect(a?.rule_id).toBe('secret');
    expect(b!.fingerprint).toBe(a!.fingerprint);
  });

  it('reads passwords bare in config files and quoted in code, and only literal ones', async () => {
    expect(await secretLines('config/database.yml', ['production:', '  password: Vd83kLq2Xz9p!'])).toEqual([2]);
    expect(await secretLines('src/db.ts', ['const password = "Vd83kLq2Xz9p!";'])).toEqual([1]);
    expect(await secretLines('src/db.py', ['password = get_password()'])).toEqual([]);
    expect(await secretLines('src/form.ts', ['const password_hash = "Vd83kLq2Xz9p!";'])).toEqual([]);
  });

  it('reads connection strings of other schemes, an empty user, JDBC and ADO.NET', async () => {
    const lines = [
      'url: redis://:Qm7xT2vK9pLw@cache.internal:6379/0',
      'AMQP_URL = "amqps://orders:Qm7xT2vK9pLw@mq.internal:5671/prod"',
      'url = "jdbc:postgresql://db:5432/app?user=app&password=Qm7xT2vK9pLw"',
      'var cs = "Server=sql;Database=Orders;User Id=app;Password=Qm7xT2vK9pLw;";',
      'url: redis://localhost:6379/0',
    ];
    expect(await secretLines('config/services.conf', lines)).toEqual([1, 2, 3, 4]);
  });

  it('reports an Airtable personal access token by its shape, not words that begin with pat', async () => {
    const airtableLines = async (path: string, lines: string[]): Promise<number[]> =>
      (await findings(path, lines))
        .filter((f) => f.message.includes('Airtable personal access token'))
        .map((f) => f.line);
    const token = `patAb3dE5fG7hJ9kL.${HEX64}`;
    expect(await airtableLines('scripts/sync.py', [`api = Api("${token}")`])).toEqual([1]);
    expect(await airtableLines('config/settings.yml', [`token: ${token}`, `${token}`])).toEqual([1, 2]);
    expect(
      await secretLines('src/paths.ts', [
        'const pattern = /pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}/;',
        'import { patch } from "./path";',
        `const short = "patAb3dE5fG7hJ9kL.${HEX64.slice(1)}";`,
        `const upper = "patAb3dE5fG7hJ9kL.${HEX64.toUpperCase()}";`,
        `const joined = "compatAb3dE5fG7hJ9kL.${HEX64}";`,
        `const placeholder = "patXXXXXXXXXXXXXX.${'x'.repeat(64)}";`,
      ]),
    ).toEqual([]);
  });

  it('reads names with values in logs and notes (.log, .txt), not in prose', async () => {
    const line = `[DEBUG] Using API_KEY=${HEX64.slice(0, 40)}`;
    expect(await secretLines('logs/deploy.log', ['[INFO] start', line])).toEqual([2]);
    expect(await secretLines('ops/notes.txt', [line])).toEqual([1]);
    expect(await secretLines('docs/notes.txt', [line])).toEqual([]);
    expect(await secretLines('README.txt', [line])).toEqual([]);
  });

  it('reads a JWT by its name only while it is well formed, signed and unexpired', async () => {
    const token = (claims: object) => jwt(claims);
    expect(await secretLines('config/client.yml', [`access_token: ${token({ sub: '42', exp: 4102444800 })}`])).toEqual([
      1,
    ]);
    expect(await secretLines('config/client.yml', [`access_token: ${token({ sub: '42', exp: 1500000000 })}`])).toEqual(
      [],
    );
    const unsigned = `${b64url({ alg: 'none' })}.${b64url({ sub: '42' })}.`;
    expect(await secretLines('src/client.ts', [`const accessToken = "${unsigned}";`])).toEqual([]);
  });

  it('does not read test data by generic names, but does read provider tokens in tests', async () => {
    expect(await secretLines('src/login.test.ts', ['const password = "Vd83kLq2Xz9p!";'])).toEqual([]);
    expect(await secretLines('src/do.test.ts', [`const client = new Client("dop_v1_${HEX64}");`])).toEqual([1]);
  });
});
