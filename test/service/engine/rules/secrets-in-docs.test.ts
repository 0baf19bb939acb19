// Credentials pasted into documentation (issue 23): Markdown, reStructuredText, AsciiDoc, prose
// .txt and notebooks are read for credentials with a shape of their own (a vendor prefix, a
// structure, a private key block, a URL with a password); values known by a name only, and
// placeholders and documented samples, stay quiet there. Templates (.example) are not read.
import { describe, expect, it } from 'vitest';
import { checksummedToken } from '../../../fixtures/secrets/tokens.ts';
import { findings } from '../review-helpers.ts';

// as GitHub issues them: a token whose checksum fails is an example in documentation
const GITHUB = checksummedToken('ghp_', 'kR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5s');
const GCP = ['AIza', 'SyR7vQ2mX9pLw4TzN8cY3hJ6dF1bG5sV0aE'].join('');
const DOCS = [
  'README.md',
  'docs/guide.mdx',
  'docs/setup.rst',
  'manual/install.adoc',
  'docs/notes.txt',
  'CHANGELOG.txt',
];
const secretLines = async (path: string, lines: string[]) =>
  (await findings(path, lines)).filter((f) => f.rule_id === 'secret').map((f) => f.line);

describe('secrets in documentation', () => {
  it.each(DOCS)('%s: tokens with a prefix, a URL with a password and a key block are reported', async (path) => {
    const lines = [
      '## Setup',
      `Set \`GITHUB_TOKEN=${GITHUB}\` before you run it.`,
      `    export GOOGLE_API_KEY=${GCP}`,
      'DATABASE_URL=postgres://app:Vd83kLq2Xz9pRt@db.internal:5432/app',
    ];
    expect(await secretLines(path, lines)).toEqual([2, 3, 4]);
    const key = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
      '-----END RSA PRIVATE KEY-----',
    ];
    expect((await findings(path, key)).map((f) => f.rule_id)).toContain('no-private-key');
  });

  it.each(DOCS)('%s: names with values, placeholders and documented samples are not', async (path) => {
    const lines = [
      'password = "Vd83kLq2Xz9pRt"',
      'api_key: 4f9a1b7c3d5e8f2a6b0c4d9e1f7a3b5c',
      'export GITHUB_TOKEN=<YOUR_TOKEN>',
      'export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      'DATABASE_URL=postgres://user:password@localhost:5432/app',
      'curl -u admin:Vd83kLq2Xz9pRt https://api.example.com',
    ];
    expect(await secretLines(path, lines)).toEqual([]);
  });

  it('a notebook: a token in a cell (a JSON string) is reported; a name with a value is not', async () => {
    const lines = [
      '  {',
      '   "cell_type": "code",',
      '   "source": [',
      `    "client = Github(\\"${GITHUB}\\")\\n",`,
      '    "password = \\"Vd83kLq2Xz9pRt\\"\\n"',
      '   ]',
      '  }',
    ];
    expect(await secretLines('analysis/explore.ipynb', lines)).toEqual([4]);
  });

  it('the same lines in source code: every kind is reported', async () => {
    expect(await secretLines('src/config.py', ['password = "Vd83kLq2Xz9pRt"', `token = "${GITHUB}"`])).toEqual([1, 2]);
  });

  it('templates stay unread', async () => {
    expect(await secretLines('.env.example', [`GITHUB_TOKEN=${GITHUB}`])).toEqual([]);
    expect(await secretLines('config/settings.yml.template', [`token: ${GITHUB}`])).toEqual([]);
  });
});
