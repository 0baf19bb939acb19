// Precision from structure, offline (issue 23, item 4): GitHub's and npm's CRC-32, PyPI's
// macaroon, age's Bech32, Grafana's and Sentry's base64 JSON, a JWT's header. A value that fails
// its check was never issued: in documentation it is an example and stays quiet; elsewhere it is
// reported, saying that its checksum does not hold. Published samples stay quiet everywhere.
import { describe, expect, it } from 'vitest';
import {
  base62,
  bech32Holds,
  crc32ChecksumHolds,
  pypiMacaroonHolds,
} from '../../../../service/engine/rules/secrets/checksums.ts';
import { checksummedToken } from '../../../fixtures/secrets/tokens.ts';
import { findings } from '../review-helpers.ts';

const BODY = 'Xb4Kq9Lm2Rt7Vz1Nc8Pw3Hs6Jd0Fg5Ty';

/** The same token with one character of its random part changed: its checksum no longer holds. */
const altered = (token: string): string => token.replace(/_(.)/, (_, c: string) => `_${c === 'A' ? 'B' : 'A'}`);

/** A PyPI token: "pypi-" and a version 2 macaroon (location pypi.org, identifier, one caveat, signature). */
function pypiToken(identifier: string): string {
  const field = (type: number, data: Buffer) => Buffer.concat([Buffer.from([type, data.length]), data]);
  const macaroon = Buffer.concat([
    Buffer.from([2]),
    field(1, Buffer.from('pypi.org')),
    field(2, Buffer.from(identifier)),
    Buffer.from([0]),
    field(2, Buffer.from('{"version": 1, "permissions": "user"}')),
    Buffer.from([0, 0]),
    field(6, Buffer.alloc(32, 0x5a)),
  ]);
  return `pypi-${macaroon.toString('base64url')}`;
}

/** A Bech32 string (BIP 173) of `hrp` and 5-bit `data`, upper case as age writes secret keys. */
function bech32(hrp: string, data: number[]): string {
  const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  const polymod = (values: number[]) => {
    let chk = 1;
    for (const v of values) {
      const top = chk >>> 25;
      chk = ((chk & 0x1ffffff) << 5) ^ v;
      for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!;
    }
    return chk;
  };
  const expanded = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)];
  const mod = polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const check = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...check].map((d) => CHARSET[d]).join('')}`.toUpperCase();
}

const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

async function secretMessages(path: string, lines: string[]): Promise<string[]> {
  return (await findings(path, lines)).filter((f) => f.rule_id === 'secret').map((f) => `${f.line}: ${f.message}`);
}

describe('checksums', () => {
  it("computes GitHub's CRC-32 as published (base62 0-9A-Za-z, over the 30 random characters only)", () => {
    // the body of an expired token published with therootcompany/base62-token.js, without its prefix
    expect(crc32ChecksumHolds(`${'zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ'}${'0mLq17'}`)).toBe(true);
    expect(crc32ChecksumHolds(`${'zQWBuTSOoRi4A9spHcVY5ncnsDkxkj'}${'0mLq17'}`)).toBe(false);
    expect(base62(0, 6)).toBe('000000');
  });

  it('parses a PyPI macaroon to its signature, and nothing else', () => {
    expect(pypiMacaroonHolds(pypiToken('3f9a0c7e-5b1d-4f2a-8c6e-0b9d7f1a3c5e'))).toBe(true);
    expect(pypiMacaroonHolds(`pypi-AgEIcHlwaS5vcmc${BODY}${BODY}${BODY}`)).toBe(false);
    expect(pypiMacaroonHolds(pypiToken('id').slice(0, -4))).toBe(false);
  });

  it('checks a Bech32 checksum', () => {
    const key = bech32(
      'age-secret-key-',
      Array.from({ length: 52 }, (_, i) => (i * 7 + 3) % 32),
    );
    expect(bech32Holds(key)).toBe(true);
    expect(bech32Holds(key.replace(/.$/, (c) => (c === 'Q' ? 'P' : 'Q')))).toBe(false);
  });
});

describe('secret: a checksum that fails', () => {
  const github = checksummedToken('ghp_', BODY);
  const npm = checksummedToken('npm_', [...BODY].reverse().join(''));
  const pypi = pypiToken('3f9a0c7e-5b1d-4f2a-8c6e-0b9d7f1a3c5e');
  const age = bech32(
    'age-secret-key-',
    Array.from({ length: 52 }, (_, i) => (i * 11 + 5) % 32),
  );
  const grafana = Buffer.from(JSON.stringify({ k: `${BODY}${BODY}`, n: 'ci-deploy', id: 1 })).toString('base64');

  it.each([
    ['GitHub personal access token', github, altered(github)],
    ['npm access token', npm, altered(npm)],
    ['PyPI upload token', pypi, `pypi-AgEIcHlwaS5vcmc${BODY}${BODY}${BODY}`],
    ['age secret key', age, age.replace(/.$/, (c) => (c === 'Q' ? 'P' : 'Q'))],
    ['Grafana API key', grafana, `eyJrIjoi${BODY}${BODY}${BODY}`],
  ])('%s: quiet in documentation, reported as doubtful elsewhere', async (kind, valid, failing) => {
    expect(await secretMessages('README.md', [`Set \`TOKEN=${valid}\` first.`])).toEqual([
      expect.stringContaining(`${kind} was added; remove it`),
    ]);
    expect(await secretMessages('README.md', [`Set \`TOKEN=${failing}\` first.`])).toEqual([]);
    expect(await secretMessages('config/ci.yml', [`token: ${failing}`])).toEqual([
      expect.stringContaining(`${kind} whose checksum does not hold was added; it is most likely made up`),
    ]);
    expect(await secretMessages('config/ci.yml', [`token: ${valid}`])).toEqual([
      expect.not.stringContaining('checksum'),
    ]);
  });

  it('does not report a privileged JWT whose header is not JSON, or the Supabase CLI local key', async () => {
    const claims = b64url({ role: 'service_role', iss: 'supabase' });
    const signature = 'Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0aE2iU7oX9qM';
    const wellFormed = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${claims}.${signature}`;
    expect(await secretMessages('src/admin.ts', [`const key = "${wellFormed}";`])).toHaveLength(1);
    expect(
      await secretMessages('src/admin.ts', [`const key = "eyJhbGciOiBad${BODY}.${claims}.${signature}";`]),
    ).toEqual([]);
    const demo = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ iss: 'supabase-demo', role: 'service_role', exp: 1983812996 })}.${signature}`;
    expect(await secretMessages('src/admin.ts', [`const key = "${demo}";`])).toEqual([]);
  });
});
