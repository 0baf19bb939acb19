// Every credential format of the engine finds a leak made from its own pattern, through the whole
// engine (keyword pre-filter, entropy gate, placeholder and fake-name filters): a format whose keywords,
// gate or filters keep it from ever firing fails here. randexp writes the samples (seeded, so the
// same on every run); the few formats a random string cannot satisfy (a JWT's claims, a generic
// name's readable value) must be found by their hand-made samples in the labelled set instead.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../../service/engine/index.ts';
import type { CredentialFormat } from '../../../../service/engine/rules/secrets/format.ts';
import { CREDENTIAL_FORMATS } from '../../../../service/engine/rules/secrets/formats.ts';
import { randomNumbers } from '../../../support/random-text.ts';
import { LABELLED_SET } from '../../../fixtures/secrets/labelled-set.ts';
import { labelledRepo } from '../../../fixtures/secrets/score.ts';
import { newFileDiff } from '../review-helpers.ts';

// randexp is CommonJS whose types declare a default export: required, typed as its class.
const RandExp: typeof import('randexp').default = createRequire(import.meta.url)('randexp');
const engine = createEngine({ maxFindings: 10_000 });

/** A seed of the format's own (its id's characters), so that adding a format changes no other's sample. */
const seedOf = (id: string): number => [...id].reduce((seed, c) => (seed * 31 + c.charCodeAt(0)) >>> 0, 20261124);

/** A string the format's pattern matches (lookarounds dropped: randexp ignores them), printable ASCII only. */
function sampleOf(format: CredentialFormat): string {
  const next = randomNumbers(seedOf(format.id));
  const generator = new RandExp(format.pattern.source.replace(/\(\?<[!=][^)]*\)/g, ''));
  generator.max = 3;
  generator.defaultRange.subtract(0, 0x20);
  generator.defaultRange.subtract(0x7f, 0xffff);
  generator.randInt = (a: number, b: number) => a + Math.floor(next() * (b - a + 1));
  return generator.gen();
}

/** Whether the engine reports a secret of this kind on a config line holding the sample. */
async function finds(format: CredentialFormat, sample: string): Promise<boolean> {
  // a keyword that starts with a quote or a separator needs a name in front of it
  const line = /^["'`=: ]/.test(format.keywords[0] ?? '') ? `key: ${sample}` : sample;
  const { findings } = await engine.review(newFileDiff('config/settings.yml', [line]));
  return findings.some((f) => f.rule_id === 'secret' && f.message.includes(format.kind));
}

describe('credential formats', () => {
  it('each one finds a leak made from its own pattern, or its hand-made sample in the labelled set', async () => {
    const unfound: CredentialFormat[] = [];
    for (const format of CREDENTIAL_FORMATS) if (!(await finds(format, sampleOf(format)))) unfound.push(format);

    const repo = labelledRepo(LABELLED_SET);
    try {
      const { findings } = await engine.review(repo.diff);
      const labelled = findings.filter((f) => f.rule_id === 'secret').map((f) => f.message);
      const nowhere = unfound.filter((format) => !labelled.some((message) => message.includes(format.kind)));
      expect(nowhere.map((format) => format.id)).toEqual([]);
    } finally {
      repo.cleanup();
    }
    // most are proven by their own pattern; say how many were not, so the figure is visible (27 of
    // 339; each sample is seeded by its format's id, so a new format moves no other's): a JWT's
    // claims, generic names, a key named after a service (its name's words are before the keyword),
    // a curl command line, NuGet and XML elements (read in XML files only), values that must decode
    // to something (a Basic header's or a Docker auth's user:password, a kubeconfig's PEM key), a
    // header's name before its value, short provider names (okta, kimi, ibm) whose sample puts no
    // separator after the name, samples that came out as placeholders, and patterns the generator
    // fills with what no real text holds (an npm token's blank, which it cannot write; an Azure
    // Functions URL's path of any printable character))
    expect(unfound.length).toBeLessThanOrEqual(27);
  }, 60_000);
});
