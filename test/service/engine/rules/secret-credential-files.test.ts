// Credentials known by the place they stand in (issue 23, item 3): a Docker config's auth, a
// kubeconfig's client key and user token, .pgpass lines, .git-credentials URLs, Authorization
// headers with a literal value, curl -u. Each with what must fire and what must stay quiet:
// placeholders, references, documented samples, and the same shapes where they are not credentials.
import { describe, expect, it } from 'vitest';
import { findings } from '../review-helpers.ts';

const b64 = (value: string): string => Buffer.from(value).toString('base64');
const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const PASSWORD = 'Kq7vXz9Lm2Rt!';
const TOKEN = 'Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0aE2iU7oX';
const JWT = `${b64url({ alg: 'RS256', kid: 'k1' })}.${b64url({ sub: 'system:serviceaccount:ci:deployer' })}.${TOKEN}`;
/** A PEM key as a kubeconfig's client-key-data holds it (armour built here, so that this file holds no key block). */
const PEM = ['BEGIN', 'END']
  .map((edge) => `-----${edge} RSA PRIVATE KEY-----`)
  .join('\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n');
const CERT =
  '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----\n';
const KUBECONFIG_USER = ['apiVersion: v1', 'kind: Config', 'users:', '- name: deployer', '  user:'];

/** `line: message` of the secret findings. */
async function secretMessages(path: string, lines: string[]): Promise<string[]> {
  return (await findings(path, lines)).filter((f) => f.rule_id === 'secret').map((f) => `${f.line}: ${f.message}`);
}

describe('secret: credentials by the place they stand in', () => {
  it.each([
    ['Docker registry password (config.json auth)', '.docker/config.json', [`"auth": "${b64(`ci-bot:${PASSWORD}`)}"`]],
    [
      'Docker registry password (config.json auth)',
      'deploy/pull-secret.json',
      [`{"auths":{"registry.acme.io":{"auth":"${b64(`acme:dckr_pat_${TOKEN.slice(0, 27)}`)}"}}}`],
    ],
    [
      'Docker registry password (config.json auth)',
      'charts/app/values.yaml',
      [`dockerconfig: "{\\"auths\\":{\\"ghcr.io\\":{\\"auth\\":\\"${b64(`bot:${PASSWORD}`)}\\"}}}"`],
    ],
    ['private key in a kubeconfig (client-key-data)', 'deploy/admin.kubeconfig', [`    client-key-data: ${b64(PEM)}`]],
    ['private key in a kubeconfig (client-key-data)', 'kube/config.json', [`"client-key-data": "${b64(PEM)}",`]],
    ['Kubernetes user credential in a kubeconfig', 'deploy/kubeconfig.yaml', [...KUBECONFIG_USER, `    token: ${JWT}`]],
    ['Kubernetes user credential in a kubeconfig', '.kube/config', [...KUBECONFIG_USER, `    token: ${TOKEN}`]],
    [
      'Kubernetes user credential in a kubeconfig',
      'ops/kubeconfig',
      ['- name: oidc', '  user:', '    auth-provider:', '      config:', `        id-token: ${JWT}`],
    ],
    [
      'Kubernetes user credential in a kubeconfig',
      'ops/kubeconfig',
      ['- name: admin', '  user:', `    password: ${PASSWORD}`],
    ],
    ['PostgreSQL password (.pgpass)', '.pgpass', ['# prod', `db.internal:5432:billing:billing:${PASSWORD}`]],
    ['PostgreSQL password (.pgpass)', 'ops/pgpass.conf', [`*:*:*:replicator:${TOKEN}`]],
    ['Git credential (.git-credentials)', '.git-credentials', [`https://ci-bot:MyTest${PASSWORD}@git.corp.internal`]],
    [
      'password in an Authorization: Basic header',
      'src/client.py',
      [`headers = {"Authorization": "Basic ${b64(`api:${PASSWORD}`)}"}`],
    ],
    [
      'password in an Authorization: Basic header',
      'deploy/nginx.conf',
      [`proxy_set_header Authorization "Basic ${b64(`api:${PASSWORD}`)}";`],
    ],
    ['token in an Authorization header', 'src/client.py', [`headers = {"Authorization": "Bearer ${TOKEN}"}`]],
    ['token in an Authorization header', 'src/Api.java', [`req.header(HttpHeaders.AUTHORIZATION, "Bearer ${TOKEN}");`]],
    ['token in an Authorization header', 'src/client.go', [`req.Header.Set("Authorization", "Bearer ${JWT}")`]],
    [
      'token in an Authorization header',
      'requests/orders.http',
      ['GET https://api.acme.io/orders', `Authorization: Bearer ${TOKEN}`],
    ],
    ['token in an Authorization header', 'config/proxy.yml', ['headers:', `  Authorization: Token ${TOKEN}`]],
    [
      'token in an Authorization header',
      'postman/collection.json',
      [`{"key": "Authorization", "value": "Bearer ${TOKEN}", "type": "text"}`],
    ],
    ['password on a curl command line', 'ci/fetch.sh', [`curl --user=deploy:${PASSWORD} https://dav.internal/x`]],
    [
      'password on a curl command line',
      'ci/fetch.sh',
      [`curl -fsS --user "deploy:${PASSWORD}" https://dav.internal/x`],
    ],
    [
      'secret, token or API key in a URL',
      'src/auth.py',
      [`url = "https://graph.example.com/oauth/access_token?client_id=5716055720&client_secret=${TOKEN}&grant_type=x"`],
    ],
    [
      'secret, token or API key in a string resource',
      'app/src/main/res/values/strings.xml',
      ['<resources>', `    <string name="payments_secret_key" translatable="false">${TOKEN}</string>`],
    ],
    ['password on a curl command line', 'ci/fetch.sh', [`curl -u ":${PASSWORD}" https://search.internal:9200`]],
    [
      'password on a curl command line',
      'ci/fetch.sh',
      [`curl --user kevin:'${PASSWORD}' -X PATCH https://api.internal`],
    ],
    // an API key given as the user, with an empty password
    ['password on a curl command line', 'ci/charge.sh', [`curl https://api.example.com/v1/charges -u ${TOKEN}:`]],
    // a command continued over several lines: the option on a line of its own
    [
      'password on a curl command line',
      'ci/fetch.sh',
      ['curl -fsS -X POST https://dav.internal/x \\', "  -H 'Content-Type: text/plain' \\", `  -u deploy:${PASSWORD}`],
    ],
    ['credential in a curl header', 'ci/fetch.sh', ['curl -X GET \\', `     -H "X-Api-Key: ${TOKEN}"`]],
  ])('%s: %s', async (kind, path, lines) => {
    const messages = await secretMessages(path, lines);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(kind);
    expect(messages[0]).toMatch(new RegExp(`^${lines.length}: `));
  });

  it('decodes a Kubernetes Secret of type dockerconfigjson', async () => {
    const config = (auth: string) => b64(JSON.stringify({ auths: { 'ghcr.io': { auth } } }));
    const secret = ['apiVersion: v1', 'kind: Secret', 'type: kubernetes.io/dockerconfigjson', 'data:'];
    expect(
      await secretMessages('k8s/pull-secret.yaml', [
        ...secret,
        `  .dockerconfigjson: ${config(b64(`bot:${PASSWORD}`))}`,
      ]),
    ).toEqual([
      '5: secret: A Docker registry credential in a Kubernetes Secret was added; remove it, rotate it, and load it from the environment or a secret store.',
    ]);
    expect(
      await secretMessages('k8s/pull-secret.yaml', [
        ...secret,
        `  .dockerconfigjson: ${config(b64('username:password'))}`,
      ]),
    ).toEqual([]);
  });

  it('reports the .pgpass password only, past escaped colons', async () => {
    const [finding] = (await findings('.pgpass', [`db\\:1:5432:app:app:pa\\:${PASSWORD}`])).filter(
      (f) => f.rule_id === 'secret',
    );
    expect(finding?.start_column).toBe('db\\:1:5432:app:app:'.length + 1);
  });
});

describe('secret: the same places with placeholders, references and samples stay quiet', () => {
  it.each([
    ['.docker/config.json', [`"auth": "${b64('username:password')}"`]],
    ['.docker/config.json', [`"auth": "${b64('admin:admin')}"`]],
    ['.docker/config.json', [`"auth": "${b64('ci:$REGISTRY_PASSWORD')}"`]],
    ['.docker/config.json', ['"auth": "<base64 of user:password>"', '"auth": ""']],
    ['src/session.ts', [`const session = { "auth": "${b64('not a pair').replace(/=/g, '')}" };`]],
    ['deploy/admin.kubeconfig', [`    client-certificate-data: ${b64(CERT)}`, '    client-key-data: DATA+OMITTED']],
    ['deploy/admin.kubeconfig', [`    client-key-data: ${b64(CERT)}`]],
    ['deploy/kubeconfig.yaml', [...KUBECONFIG_USER, '    token: REDACTED', '    password: ${K8S_PASSWORD}']],
    ['deploy/kubeconfig.yaml', [...KUBECONFIG_USER, '    token: <your-token-here>']],
    // a token under a key that is no kubeconfig user: the generic rules' business, not this one's
    [
      'deploy/kubeconfig.yaml',
      ['clusters:', '- name: prod', '  cluster:', `    token: ${TOKEN.toLowerCase().slice(0, 12)}`],
    ],
    ['.pgpass', ['# hostname:port:database:username:password', 'hostname:port:database:username:password']],
    ['.pgpass', ['localhost:5432:*:postgres:postgres', '*:*:*:app:${PGPASSWORD}', 'db:5432:app:app']],
    [
      '.git-credentials',
      ['https://username:password@github.com', 'https://user:${GIT_TOKEN}@github.com', 'https://github.com'],
    ],
    ['src/client.py', [`headers = {"Authorization": "Basic ${b64('user:password')}"}`]],
    // RFC 7617's own example
    ['src/client.py', ['headers = {"Authorization": "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="}']],
    // the Firebase SDKs' test configuration key, in every checkout of them
    ['app/google-services.json', ['{ "api_key": [{ "current_key": "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM" }] }']],
    ['src/client.ts', ['headers.Authorization = `Basic ${btoa(`${user}:${pass}`)}`;', 'Basic usage: pass a token.']],
    [
      'src/client.ts',
      [
        'headers: { Authorization: `Bearer ${token}` },',
        'headers: { Authorization: "Bearer " + token },',
        "'Authorization': 'Bearer YOUR_ACCESS_TOKEN',",
        "'Authorization': 'Bearer <token>',",
        "'Authorization': 'Bearer xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',",
      ],
    ],
    ['requests/orders.http', ['Authorization: Bearer {{token}}', 'Authorization: Bearer $TOKEN']],
    // the token jwt.io opens with, and a JWT whose header is not JSON
    [
      'src/client.ts',
      [
        "'Authorization': 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',",
        `'Authorization': 'Bearer eyJ${TOKEN}.${TOKEN}.${TOKEN}',`,
      ],
    ],
    // a scheme without the header's name before it
    ['src/oauth.ts', [`const reply = { token_type: "Bearer", note: "Bearer ${TOKEN}" };`]],
    // examples in documentation, test data in tests
    ['docs/api.md', [`    Authorization: Bearer ${TOKEN}`, `curl --user deploy:${PASSWORD} https://dav.internal/x`]],
    ['test/client.test.ts', [`headers = {"Authorization": "Bearer ${TOKEN}"}`]],
    [
      'ci/fetch.sh',
      ['curl --user "deploy:$DEPLOY_PASSWORD" https://dav.internal/x', 'curl -u deploy: https://dav.internal/x'],
    ],
    // a query parameter from a variable or a placeholder; a string resource that is a label
    ['src/auth.py', ['url = f"https://api.example.com/v1?api_key={api_key}&q=1"']],
    ['src/auth.py', ['url = "https://api.example.com/v1?api_key=YOUR_API_KEY&q=1"']],
    [
      'app/src/main/res/values/strings.xml',
      ['<string name="api_key_hint">Paste the key from your account page</string>'],
    ],
    // a user name alone, with an empty password
    ['ci/fetch.sh', ['curl -u admin: https://dav.internal/x', 'curl -u deploy-bot: https://dav.internal/x']],
    // the option of another command, or after a command that ended
    ['ci/run.sh', ['ssh-keygen -t ed25519 \\', `  -u deploy:${PASSWORD}`]],
    ['ci/run.sh', ['curl -fsS https://dav.internal/x', `  -u deploy:${PASSWORD}`]],
  ])('%s: %j', async (path, lines) => {
    expect(await secretMessages(path, lines)).toEqual([]);
  });
});
