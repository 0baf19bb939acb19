// Providers betterleaks and trufflehog know that gitleaks' default rules lack, and common ones
// all of them lack (issue 23, item 1): each format fires on a credential of its documented shape
// (here by hand for a sample of them; every one by its own pattern in secret-format-samples), and
// stays quiet on its prefix with a placeholder, inside a word, and on the public keys and ids
// left out on purpose.
import { describe, expect, it } from 'vitest';
import { NEWER_PREFIXED } from '../../../../service/engine/rules/secrets/newer-providers.ts';
import { findings } from '../review-helpers.ts';

const HEX = '3f9a0c7e5b1d4f2a8c6e0b9d7f1a3c5e4d2b8f6a0c9e7b5d3f1a2c4e6b8d0f9a7c';
const MIX = 'Qm7xT2vK9pLwR4sZ8yN3cF6hJ1dG5bV0aE2iU7oX9qMk3Lz5Wn8Rt0Yp2Hs4Dj6Fg';
const LOWER = 'q7xt2vk9plwr4sz8yn3cf6hj1dg5bv0ae2iu7ox9qmk3lz5wn8rt0yp2hs4dj6fg';
const mix = (length: number): string => MIX.repeat(4).slice(0, length);
const UUID = '4f1c2b3a-9d8e-4a7b-a6c5-1e2d3f4a5b6c';

async function secretMessages(path: string, lines: string[]): Promise<string[]> {
  return (await findings(path, lines)).filter((f) => f.rule_id === 'secret').map((f) => f.message);
}

describe('secret: newer providers by their shape', () => {
  it.each([
    ['OpenRouter API key', `OPENROUTER_API_KEY=sk-or-v1-${HEX.slice(0, 64)}`],
    ['xAI API key', `client = Client(api_key="xai-${mix(80)}")`],
    ['Neon API key', `NEON_API_KEY=napi_${mix(64)}`],
    ['Supabase access token', `export SUPABASE_ACCESS_TOKEN=sbp_${HEX.slice(0, 40)}`],
    ['Supabase secret key', `const supabase = createClient(url, "sb_secret_${mix(31)}");`],
    ['Pinecone API key', `pc = Pinecone(api_key="pcsk_${mix(6)}_${mix(63)}")`],
    ['LangSmith API key', `LANGSMITH_API_KEY=lsv2_pt_${HEX.slice(0, 32)}_${HEX.slice(0, 10)}`],
    ['Replicate API token', `REPLICATE_API_TOKEN=r8_${mix(37)}`],
    ['Render API key', `RENDER_KEY=rnd_${mix(28)}`],
    ['Docker Hub organization access token', `docker login -u acme -p dckr_oat_${mix(32)}`],
    ['Docker swarm unlock key', `SWMKEY-1-${mix(43)}`],
    ['Buildkite API access token', `BUILDKITE_TOKEN=bkua_${LOWER.slice(0, 40)}`],
    ['CircleCI personal API token', `CIRCLE_TOKEN=CCIPAT_${mix(22)}_${HEX.slice(0, 40)}`],
    ['SonarQube token', `sonar.token=squ_${HEX.slice(0, 40)}`],
    ['Doppler token', `DOPPLER_TOKEN=dp.st.prd.${mix(43)}`],
    ['Google OAuth client secret', `"client_secret": "GOCSPX-${mix(28)}"`],
    ['Google OAuth refresh token', `"refresh_token": "1//0${mix(60)}"`],
    ['HubSpot private app access token', `const hubspot = new Client({ accessToken: "pat-na1-${UUID}" });`],
    ['webhook signing secret (Stripe, Svix)', `STRIPE_WEBHOOK_SECRET=whsec_${mix(32)}`],
    ['Mapbox secret token', `MAPBOX_TOKEN=sk.eyJ1IjoiYWNtZSIsImEiOiJjbGs${mix(30)}.${mix(22)}`],
    ['Discord webhook URL', `url = "https://discord.com/api/webhooks/1187349026581739204/${mix(68)}"`],
    ['Telegram bot token', `TOKEN = "7012398456:AA${mix(33)}"`],
    ['Firebase Cloud Messaging server key', `key = "AAAA${mix(7)}:APA91b${mix(134)}"`],
    ['Tableau personal access token', `value = "${mix(22)}==:${mix(32)}"`],
    ['Azure App Configuration access key', `Endpoint=https://acme.azconfig.io;Id=Ab12-l0-s0:Qx7;Secret=${mix(44)}`],
    ['Asaas API key', `ASAAS_KEY='$aact_prod_${mix(60)}'`],
    ['Braintree (PayPal) access token', `BT = "access_token$production$${LOWER.slice(0, 16)}$${HEX.slice(0, 32)}"`],
    ['NuGet API key', `dotnet nuget push x.nupkg --api-key oy2${LOWER.slice(0, 43)}`],
    ['Moonshot (Kimi) API key', `MOONSHOT_API_KEY = "sk-${mix(48)}"`],
    ['Mistral API key', `MISTRAL_API_KEY = "${mix(32)}"`],
    ['Trello API key or token', `TRELLO_TOKEN = "ATTA${HEX.slice(0, 64)}"`],
    ['Azure storage account key', `AZURE_STORAGE_KEY = "${mix(86)}=="`],
    ['Azure storage account key', `    account_key: '${mix(86)}=='`],
    ['Azure storage account key', `\t\tAccountKey: "${mix(86)}==",`],
    ['Figma personal access token', 'X-Figma-Token: 7E3A-9C1F5B2D-4A8E-0F6C-2B9D-8E1A4C7F3B5D'],
  ])('%s: %s', async (kind, line) => {
    const messages = await secretMessages('config/settings.conf', [line]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(kind);
  });

  it('every prefix followed by a placeholder, or inside a word, is quiet', async () => {
    const loud: string[] = [];
    for (const format of NEWER_PREFIXED) {
      const prefix = format.keywords[0]!;
      const lines = [`value = "${prefix}${'x'.repeat(64)}"`, `value = "${prefix}<your-key-here>"`];
      if (format.wordStart) lines.push(`value = "a${prefix}${mix(64)}"`);
      if ((await secretMessages('config/settings.conf', lines)).length > 0) loud.push(format.id);
    }
    expect(loud).toEqual([]);
  });

  it('does not report public keys, ids and words that share a prefix', async () => {
    const lines = [
      `posthog.init("phc_${mix(43)}");`,
      `const client = initializeDevCycle("dvc_client_${mix(32)}");`,
      'const result = await AWS.STS.AssumeRoleWithWebIdentityRequestV2();',
      'class BSAConfigurationManagerServiceImpl {}',
      'const EXOPLANETSURVEYDATAFORMATVERSION = 3;',
      `const secret_${'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopq'} = 1;`,
      'const precious = cioccolata;',
      `const midtransClientKey = "Mid-client-${mix(24)}";`,
      `const ramp = "ramp_id_${mix(40)}";`,
    ];
    expect(await secretMessages('src/app.ts', lines)).toEqual([]);
  });
});
