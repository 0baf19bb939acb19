// One realistic sample per rule of secretlint's recommended preset, through the whole engine
// (keyword pre-filter, line tests, secretlint), and the checks that keep the engine's keyword
// table (PRESET_NEEDLES) in step with the installed preset.
import { createHash } from 'node:crypto';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { PRESET_NEEDLES, UNKNOWN_PRESET_RULES } from '../../../../service/engine/rules/secrets.ts';
import { checksummedToken } from '../../../fixtures/secrets/tokens.ts';
import { randomSource } from '../../../support/random-text.ts';
import { findings } from '../review-helpers.ts';

const token = randomSource(20251121);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz${DIGITS}`;
const HEX = '0123456789abcdef';
const BASE64 = `${ALNUM}+/`;

const pemBody = (lines: number): string[] =>
  Array.from({ length: lines }, (_, i) =>
    i === 0 ? `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${token(BASE64, 32)}` : token(BASE64, 64),
  );

interface Sample {
  /** What the sample is, for the test name. */
  name: string;
  path: string;
  lines: string[];
  /** The secret's value: it must never appear in a message. */
  secret: string;
  /** The rule that must report it, on the line that holds `secret` or on `line`. */
  rule: 'secret' | 'no-private-key';
  line?: number;
}

const awsSecretAccessKey = token(BASE64, 40);
const gcpKey = pemBody(1)[0]!;
const privateKeyBody = pemBody(6);
/** A service account token is base64 of a JSON object; its end is "fQ" (of "}") when the JSON's length is 1 mod 3. */
function opsToken(): string {
  let json = JSON.stringify({
    email: 'svc-deploy@1passwordserviceaccounts.com',
    secretKey: `A3-${token(UPPER + DIGITS, 30)}`,
    srpX: token(HEX, 64),
  });
  while (json.length % 3 !== 1) json = json.replace('{', '{ ');
  return Buffer.from(json).toString('base64').replace(/=+$/, '');
}
const opsPayload = opsToken();

/** By preset rule id: realistic samples of what it finds. */
const SAMPLES: Record<string, Sample[]> = {
  '@secretlint/secretlint-rule-aws': [
    // secretlint reports access key ids only with enableIDScanRule, which the engine turns on.
    // diff-review-ignore secret (a sample key, for the engine's own test)
    {
      name: 'access key id in code',
      path: 'src/aws.ts',
      lines: ['const accessKeyId = "AKIAZ3MSJVXUV6O7QXYZ";'],
      secret: 'AKIAZ3MSJVXUV6O7QXYZ',
      rule: 'secret',
    },
    {
      name: 'secret access key assignment',
      path: 'deploy/credentials.py',
      lines: [`aws_secret_access_key = "${awsSecretAccessKey}"`],
      secret: awsSecretAccessKey,
      rule: 'secret',
    },
    {
      name: 'secret access key in an ini file',
      path: 'config/aws.ini',
      lines: ['[default]', `AWS_SECRET_ACCESS_KEY=${awsSecretAccessKey}`],
      secret: awsSecretAccessKey,
      rule: 'secret',
    },
  ],
  // The GCP rule reads a whole key file as JSON; the key inside is a PEM block: no-private-key reports it.
  '@secretlint/secretlint-rule-gcp': [
    {
      name: 'service account key file',
      path: 'deploy/service-account.json',
      lines: [
        '{',
        '  "type": "service_account",',
        '  "project_id": "billing-prod-4711",',
        `  "private_key_id": "${token(HEX, 40)}",`,
        `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${gcpKey}\\n${token(BASE64, 64)}\\n-----END PRIVATE KEY-----\\n",`,
        '  "client_email": "deployer@billing-prod-4711.iam.gserviceaccount.com"',
        '}',
      ],
      secret: gcpKey.slice(0, 40),
      rule: 'no-private-key',
    },
  ],
  '@secretlint/secretlint-rule-privatekey': [
    // Reported on the BEGIN line.
    {
      name: 'PEM block',
      path: 'deploy/id_rsa',
      lines: ['-----BEGIN RSA PRIVATE KEY-----', ...privateKeyBody, '-----END RSA PRIVATE KEY-----'],
      secret: privateKeyBody[1]!,
      rule: 'no-private-key',
      line: 1,
    },
  ],
  '@secretlint/secretlint-rule-npm': [
    {
      name: 'npm access token',
      path: '.github/release.env.ts',
      lines: [`export const NPM_TOKEN = "${checksummedToken('npm_', token(ALNUM, 36))}";`],
      secret: 'npm_',
      rule: 'secret',
    },
    {
      name: 'token in a package.json repository URL',
      path: 'package.json',
      lines: ['{', `  "repository": "https://${token(HEX, 40)}:x-oauth-basic@github.com/acme/billing.git"`, '}'],
      secret: 'x-oauth-basic',
      rule: 'secret',
    },
    {
      name: '.npmrc auth token',
      path: '.npmrc',
      lines: [
        'registry=https://registry.npmjs.org/',
        `//registry.npmjs.org/:_authToken=${token(HEX, 8)}-${token(HEX, 4)}-${token(HEX, 4)}-${token(HEX, 12)}`,
      ],
      secret: '_authToken=',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-basicauth': [
    {
      name: 'credentials in a URL',
      path: 'scripts/mirror.ts',
      lines: ['const remote = "https://deploybot:Qm7xT2vK9pLw@git.corp-intra.net/platform/api.git";'],
      secret: 'Qm7xT2vK9pLw',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-slack': [
    {
      name: 'bot token',
      path: 'src/notify.ts',
      lines: [`const slackToken = "xoxb-${token(DIGITS, 13)}-${token(DIGITS, 13)}-${token(ALNUM, 24)}";`],
      secret: 'xoxb-',
      rule: 'secret',
    },
    {
      name: 'incoming webhook',
      path: 'src/notify.ts',
      lines: [
        `const hook = "https://hooks.slack.com/services/T${token(UPPER + DIGITS, 8)}/B${token(UPPER + DIGITS, 10)}/${token(ALNUM, 24)}";`,
      ],
      secret: 'hooks.slack.com/services/T',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-sendgrid': [
    {
      name: 'API key',
      path: 'src/mail.ts',
      lines: [`sgMail.setApiKey("SG.${token(ALNUM, 22)}.${token(ALNUM, 43)}");`],
      secret: 'SG.',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-shopify': [
    {
      name: 'admin API access token',
      path: 'src/shop.ts',
      lines: [`const adminToken = "shpat_${token(HEX, 32)}";`],
      secret: 'shpat_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-stripe': [
    {
      name: 'live secret key',
      path: 'src/billing.ts',
      lines: [`const stripe = new Stripe("sk_live_${token(ALNUM, 99)}");`],
      secret: 'sk_live_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-github': [
    {
      name: 'personal access token',
      path: 'src/gh.ts',
      lines: [`const token = "${checksummedToken('ghp_', token(ALNUM, 36))}";`],
      secret: 'ghp_',
      rule: 'secret',
    },
    {
      name: 'fine-grained token',
      path: 'src/gh.ts',
      lines: [`GITHUB_TOKEN: "github_pat_${token(ALNUM, 22)}_${token(ALNUM, 59)}"`],
      secret: 'github_pat_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-gitlab': [
    {
      name: 'personal access token',
      path: 'ci/gitlab.ts',
      lines: [`const gitlabToken = "glpat-${token(ALNUM, 20)}";`],
      secret: 'glpat-',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-grafana': [
    {
      name: 'service account token',
      path: 'ops/grafana.ts',
      lines: [`const grafanaToken = "glsa_${token(ALNUM, 32)}_${token(HEX, 8)}";`],
      secret: 'glsa_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-openai': [
    {
      name: 'project API key',
      path: 'src/ai.ts',
      lines: [`const openai = new OpenAI({ apiKey: "sk-proj-${token(ALNUM, 74)}T3BlbkFJ${token(ALNUM, 74)}" });`],
      secret: 'T3BlbkFJ',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-anthropic': [
    {
      name: 'API key',
      path: 'src/ai.ts',
      lines: [`const anthropic = new Anthropic({ apiKey: "sk-ant-api03-${token(ALNUM, 93)}AA" });`],
      secret: 'sk-ant-api03-',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-groq': [
    {
      name: 'API key',
      path: 'src/ai.py',
      lines: [`client = Groq(api_key="gsk_${token(ALNUM, 52)}")`],
      secret: 'gsk_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-huggingface': [
    {
      name: 'access token',
      path: 'train/config.py',
      lines: [`HF_TOKEN = "hf_${token(`${UPPER}abcdefghijklmnopqrstuvwxyz`, 34)}"`],
      secret: 'hf_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-linear': [
    {
      name: 'API key',
      path: 'tools/linear.ts',
      lines: [`const linear = new LinearClient({ apiKey: "lin_api_${token(ALNUM, 40)}" });`],
      secret: 'lin_api_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-notion': [
    {
      name: 'integration token',
      path: 'src/notion.ts',
      lines: [`const notion = new Client({ auth: "ntn_${token(DIGITS, 11)}${token(ALNUM, 35)}" });`],
      secret: 'ntn_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-1password': [
    {
      name: 'service account token',
      path: 'ops/op.env.ts',
      lines: [`export const OP_SERVICE_ACCOUNT_TOKEN = "ops_${opsPayload}";`],
      secret: opsPayload.slice(0, 40),
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-database-connection-string': [
    {
      name: 'PostgreSQL URL with a password',
      path: 'deploy/settings.py',
      lines: ['DATABASE_URL = "postgres://billing_app:Vd83kLq2Xz9p@db-primary.internal:5432/billing"'],
      secret: 'Vd83kLq2Xz9p',
      rule: 'secret',
    },
    {
      name: 'MongoDB URL with a password',
      path: 'src/db.ts',
      lines: ['const uri = "mongodb+srv://reporting:K2p9Lx7Qw4Zt@cluster0.mongodb.net/reports";'],
      secret: 'K2p9Lx7Qw4Zt',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-hashicorp-vault': [
    {
      name: 'service token',
      path: 'ops/vault.ts',
      lines: [`const vaultToken = "hvs.${token(ALNUM, 95)}";`],
      secret: 'hvs.',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-vercel': [
    {
      name: 'personal access token',
      path: 'scripts/deploy.ts',
      lines: [`const vercelToken = "vcp_${token(ALNUM, 40)}";`],
      secret: 'vcp_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-databricks': [
    {
      name: 'personal access token',
      path: 'jobs/etl.py',
      lines: [`DATABRICKS_TOKEN = "dapi${token(HEX, 32)}"`],
      secret: 'dapi',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-docker': [
    {
      name: 'personal access token',
      path: 'ci/registry.ts',
      lines: [`const dockerToken = "dckr_pat_${token(ALNUM, 27)}";`],
      secret: 'dckr_pat_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-figma': [
    {
      name: 'personal access token',
      path: 'design/sync.ts',
      lines: [`const figmaToken = "figd_${token(ALNUM, 40)}";`],
      secret: 'figd_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-cloudflare': [
    {
      name: 'user API token',
      path: 'ops/dns.ts',
      lines: [`const cloudflareToken = "cfut_${token(ALNUM, 40)}${token(HEX, 8)}";`],
      secret: 'cfut_',
      rule: 'secret',
    },
  ],
  '@secretlint/secretlint-rule-tailscale': [
    {
      name: 'auth key',
      path: 'ops/tailnet.ts',
      lines: [`const authKey = "tskey-auth-${token(ALNUM, 17)}-${token(ALNUM, 33)}";`],
      secret: 'tskey-auth-',
      rule: 'secret',
    },
  ],
};

/** The sample's secret value as it appears on its line (the whole token, not just the prefix). */
function secretOnLine(sample: Sample): { line: number; value: string } {
  const index = sample.lines.findIndex((line) => line.includes(sample.secret));
  const text = sample.lines[index]!;
  const at = text.indexOf(sample.secret);
  // The value runs from the sample's marker to the next quote or the end of the line.
  const rest = text.slice(at);
  const value = rest.split(/["'\s]/)[0]!;
  return { line: sample.line ?? index + 1, value };
}

describe('secrets: one sample per rule of the recommended preset', () => {
  it('knows every rule of the installed preset, and no rule it does not have', () => {
    const presetRules = recommendedPreset.rules.map((rule) => rule.meta.id).sort();
    expect(UNKNOWN_PRESET_RULES).toEqual([]);
    expect(Object.keys(PRESET_NEEDLES).sort()).toEqual(presetRules);
  });

  it('has a sample for every scanner of the preset (filter-comments filters, it finds nothing)', () => {
    const scanners = recommendedPreset.rules
      .map((rule) => rule.meta.id)
      .filter((id) => id !== '@secretlint/secretlint-rule-filter-comments');
    expect(Object.keys(SAMPLES).sort()).toEqual(scanners.sort());
  });

  for (const [presetRule, samples] of Object.entries(SAMPLES)) {
    describe(presetRule.replace('@secretlint/secretlint-rule-', ''), () => {
      it.each(samples.map((sample) => [sample.name, sample] as const))('%s', async (_name, sample) => {
        const { line, value } = secretOnLine(sample);
        const found = await findings(sample.path, sample.lines);
        const finding = found.find((f) => f.rule_id === sample.rule && f.line === line);
        expect(
          finding,
          `${sample.rule} on line ${line}; found ${JSON.stringify(found.map((f) => [f.rule_id, f.line]))}`,
        ).toBeDefined();
        expect(finding!.severity).toBe('error');
        expect(finding!.message.startsWith(`${sample.rule}: `)).toBe(true);
        for (const f of found) {
          // Not the value, and not a long piece of it.
          expect(f.message).not.toContain(value);
          if (value.length >= 16) expect(f.message).not.toContain(value.slice(value.length - 12));
        }
        // The message names the kind in words ("A GitHub personal access token"), not secretlint's ids.
        if (sample.rule === 'secret') expect(finding!.message).toMatch(/^secret: An? [\w .()/-]+ was added;/);
        expect(finding!.message).not.toMatch(/@secretlint|secretlint-rule|[A-Z]+_[A-Z_]+/);
        // Whoever reads the fingerprint cannot confirm a guess of the line holding the secret.
        expect(finding!.fingerprint).not.toBe(
          fingerprintOfPlainLine(sample.rule, sample.path, sample.lines[line - 1]!),
        );
      });
    });
  }
});

describe('secrets: columns', () => {
  // secretlint reports this one from the start of its name with the value's length (1–41)
  it.each([
    ['config/credentials.ini', (v: string) => `aws_secret_access_key = ${v}`],
    ['deploy/env.yaml', (v: string) => `  AWS_SECRET_ACCESS_KEY: "${v}"`],
    ['config/aws.rb', (v: string) => `  'aws_secret_access_key' => '${v}',`],
  ])("an AWS secret access key in %s: the columns are the value's, not the name's", async (path, line) => {
    const value = token(ALNUM, 40);
    const text = line(value);
    const [found] = await findings(path, [text]);
    expect(found).toMatchObject({ rule_id: 'secret', line: 1 });
    const start = text.indexOf(value);
    expect([found!.start_column, found!.end_column]).toEqual([start + 1, start + 41]);
  });
});

describe('secrets: what is deliberately not reported', () => {
  it("AWS's documented example keys (secretlint ignores them by name)", async () => {
    const lines = [
      'aws_access_key_id = "AKIAIOSFODNN7EXAMPLE"',
      'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
    ];
    expect(await findings('docs/aws.py', lines)).toEqual([]);
  });

  it('AWS account ids (not secrets, AWS says so)', async () => {
    expect(await findings('src/aws.ts', ['const awsAccountId = "123456789012";'])).toEqual([]);
  });

  it('credentials that are placeholders or come from the environment', async () => {
    const lines = [
      'const url = `postgres://${user}:${password}@db:5432/app`;',
      'const remote = "https://user:password@example.com/repo.git";',
      '//registry.npmjs.org/:_authToken=${NPM_TOKEN}',
      'const token = process.env.GITHUB_TOKEN;',
      'const docs = "https://hooks.slack.com/ is where webhooks live";',
    ];
    expect((await findings('src/config.ts', lines)).filter((f) => f.rule_id === 'secret')).toEqual([]);
  });
});

/** The fingerprint as it was made before secrets were masked: an attacker's check of a guessed line. */
function fingerprintOfPlainLine(ruleId: string, path: string, line: string): string {
  return createHash('sha256').update(`${ruleId}\0${path}\0${line.trim()}\u00000`).digest('hex').slice(0, 32);
}

describe('secrets: fingerprints', () => {
  const pairs: { name: string; path: string; rule: string; lines: [string, string] }[] = [
    {
      name: 'a GitHub token',
      path: 'src/client.ts',
      rule: 'secret',
      lines: [`const t = "ghp_${token(ALNUM, 36)}";`, `const t = "ghp_${token(ALNUM, 36)}";`],
    },
    {
      name: 'a password in a database URL',
      path: 'deploy/settings.py',
      rule: 'secret',
      lines: [
        'DATABASE_URL = "postgres://admin:Vd83kLq2Xz9p@db-primary.internal:5432/billing"',
        'DATABASE_URL = "postgres://admin:R7mQ2wXz8kLp@db-primary.internal:5432/billing"',
      ],
    },
    {
      name: 'a private key inline in JSON',
      path: 'deploy/key.json',
      rule: 'no-private-key',
      lines: [
        `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${token(BASE64, 64)}\\n-----END PRIVATE KEY-----\\n",`,
        `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${token(BASE64, 64)}\\n-----END PRIVATE KEY-----\\n",`,
      ],
    },
    {
      name: 'a .env file',
      path: '.env',
      rule: 'no-env-file',
      lines: [`STRIPE_KEY=${token(ALNUM, 32)}`, `STRIPE_KEY=${token(ALNUM, 32)}`],
    },
  ];

  it.each(pairs.map((pair) => [pair.name, pair] as const))(
    'stay the same when only the secret changes: %s',
    async (_name, pair) => {
      const [first, second] = await Promise.all(
        pair.lines.map(async (line) => (await findings(pair.path, [line])).find((f) => f.rule_id === pair.rule)),
      );
      expect(first, JSON.stringify(await findings(pair.path, [pair.lines[0]]))).toBeDefined();
      expect(second).toBeDefined();
      expect(second!.fingerprint).toBe(first!.fingerprint);
      expect(first!.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    },
  );

  it('differ where the rest of the line differs', async () => {
    const [a, b] = await Promise.all(
      [
        'const t = "ghp_kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u";',
        'const u = "ghp_kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u";',
      ].map(async (line) => (await findings('src/a.ts', [line]))[0]!),
    );
    expect(a!.fingerprint).not.toBe(b!.fingerprint);
  });

  // Issue 16 item 7: every finding on a line that holds a secret hashes that line, not only the
  // secret's own finding; and of two secrets on one line only one finding is kept.
  const ghToken = (seed: string) => `ghp_${seed}${'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE2u'.slice(seed.length)}`;
  const otherRulesOnASecretsLine: {
    name: string;
    path: string;
    rule: string;
    line: (secret: string) => string;
    secrets: [string, string];
  }[] = [
    {
      name: 'a TODO on a line with a database URL',
      path: 'app/db.py',
      rule: 'todo-without-issue',
      line: (password) => `# TODO rotate postgres://admin:${password}@db.internal:5432/app`,
      secrets: ['Winter2024!x', 'Summer2023!y'],
    },
    {
      name: 'TLS verification off on a line with a GitHub token',
      path: 'app/sync.py',
      rule: 'no-tls-verify-off',
      line: (gh) =>
        `r = requests.get("https://api.github.com/user", headers={"Authorization": "token ${gh}"}, verify=False)`,
      secrets: [ghToken('Q'), ghToken('Zx')],
    },
  ];

  it.each(otherRulesOnASecretsLine.map((c) => [c.name, c] as const))(
    'of another rule on the line: stay the same when only the secret changes, and cannot be reproduced by a guess: %s',
    async (_name, c) => {
      const [first, second] = await Promise.all(
        c.secrets.map(async (secret) => (await findings(c.path, [c.line(secret)])).find((f) => f.rule_id === c.rule)),
      );
      expect(first).toBeDefined();
      expect((await findings(c.path, [c.line(c.secrets[0])])).map((f) => f.rule_id)).toContain('secret');
      expect(second!.fingerprint).toBe(first!.fingerprint);
      for (const guess of c.secrets)
        expect(first!.fingerprint).not.toBe(fingerprintOfPlainLine(c.rule, c.path, c.line(guess)));
    },
  );

  it('of a line with two secrets: the one finding kept masks both', async () => {
    const line = (a: string, b: string) => `const gh1 = "${a}", gh2 = "${b}";`;
    const [first, second] = await Promise.all(
      [line(ghToken('Q'), ghToken('Zx')), line(ghToken('Q'), ghToken('Wy'))].map(async (l) =>
        (await findings('src/a.ts', [l])).filter((f) => f.rule_id === 'secret'),
      ),
    );
    expect(first).toHaveLength(1);
    expect(second![0]!.fingerprint).toBe(first![0]!.fingerprint); // only the second secret changed
    expect(first![0]!.fingerprint).not.toBe(
      fingerprintOfPlainLine('secret', 'src/a.ts', line('<secret>', ghToken('Zx'))),
    );
  });

  it('cannot be reproduced by guessing the password of a URL', async () => {
    const line = 'const db = "postgres://admin:Winter2024!x@db.internal:5432/app";';
    const [finding] = await findings('src/db.ts', [line]);
    expect(finding?.rule_id).toBe('secret');
    for (const guess of ['hunter2', 'Summer2024!x', 'admin', 'Winter2024!x']) {
      expect(finding!.fingerprint).not.toBe(
        fingerprintOfPlainLine('secret', 'src/db.ts', line.replace('Winter2024!x', guess)),
      );
    }
  });
});
