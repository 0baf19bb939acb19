// Credential formats of providers that gitleaks' frozen default rules lack and its successor
// betterleaks (or trufflehog) knows, and common ones all of them lack: written here as data
// from each provider's documented shape (a prefix, a length, an alphabet), not from their rules.
// Prefixed tokens first (precise, and read in documentation too), then values known by the
// provider's name. Long by nature: one entry per format, nothing else.
import type { CredentialFormat } from './format.ts';
import { END, named, prefixed, UUID } from './format.ts';

const HEX = '[a-f0-9]';
const ALNUM = '[A-Za-z0-9]';
/** A short prefix (BSA, EXO) starts words too: the token must hold a digit. */
const hasDigit = (secret: string): boolean => /\d/.test(secret);

/** A workflow's trigger URL after its host: the sig= query parameter signs it, whoever holds it can run the workflow. */
function signedTriggerUrl(id: string, kind: string, hosts: readonly string[], path: string): CredentialFormat {
  return prefixed(id, kind, hosts, `(?::\\d{1,5})?${path}[^\\s"'<>?]{0,200}\\?[^\\s"'<>]{0,300}?sig=[\\w-]{20,100}`, {
    wordStart: false,
  });
}

export const NEWER_PREFIXED: CredentialFormat[] = [
  prefixed('aikido-ci-token', 'Aikido CI token', ['AIK_CI_'], `${ALNUM}{20,44}`, { entropy: 3 }),
  prefixed('aikido-client-secret', 'Aikido client secret', ['AIK_SECRET_'], `${ALNUM}{64}`, { entropy: 3.5 }),
  prefixed('alibaba-sts-security-token', 'Alibaba Cloud STS security token', ['CAIS'], '[\\w+/=-]{100,2000}', {
    entropy: 4.5,
  }),
  prefixed('apify-api-token', 'Apify API token', ['apify_api_'], `${ALNUM}{34,38}`, { entropy: 3 }),
  prefixed('atlassian-api-token-prefixed', 'Atlassian API token', ['ATATT3'], '[\\w=-]{180,200}', { entropy: 4 }),
  // Amazon Marketplace Web Service auth token: amzn.mws. and a UUID.
  prefixed('amazon-mws-auth-token', 'Amazon MWS auth token', ['amzn.mws.'], UUID, { entropy: 3 }),
  // AWS AppSync API key: da2- and 26 lower-case letters and digits.
  prefixed('aws-appsync-api-key', 'AWS AppSync API key', ['da2-'], '[a-z0-9]{26}', { entropy: 3.5, accepts: hasDigit }),
  // An STS session token: base64 of its binary header (older ones FQoGZXIvYXdz, today's IQoJb3JpZ2luX2Vj);
  // runs of slashes are in every one.
  prefixed('aws-session-token', 'AWS session token', ['FQoGZXIvYXdz', 'IQoJb3JpZ2luX2Vj'], '[A-Za-z0-9+/=]{100,2000}', {
    entropy: 4,
    uniformRunsAllowed: true,
  }),
  // An Entra ID refresh token: 0.A, the tenant and client, then the encrypted part that starts AgAB.
  prefixed(
    'azure-ad-refresh-token',
    'Azure AD (Entra ID) refresh token',
    ['0.A'],
    '[\\w-]{40,2000}\\.AgAB[\\w-]{20,8000}',
    {
      entropy: 4,
      // every one has AgABAAAAAAA… (the version and flags): a run of As is its shape, not a placeholder
      uniformRunsAllowed: true,
    },
  ),
  prefixed('bitbucket-app-password', 'Bitbucket app password', ['ATBB'], `${ALNUM}{28,40}`, {
    entropy: 3.5,
    accepts: hasDigit,
  }),
  prefixed(
    'braintree-access-token',
    'Braintree (PayPal) access token',
    ['access_token$production$'],
    `[a-z0-9]{16}\\$${HEX}{32}`,
    {
      entropy: 3,
    },
  ),
  prefixed('brave-search-api-key', 'Brave Search API key', ['BSA'], '[\\w-]{24,40}', {
    entropy: 3.5,
    accepts: hasDigit,
  }),
  prefixed('brevo-smtp-key', 'Brevo (Sendinblue) SMTP key', ['xsmtpsib-'], `${HEX}{64}-${ALNUM}{16}`, { entropy: 2 }),
  prefixed('buildkite-user-access-token', 'Buildkite API access token', ['bkua_'], '[a-z0-9]{40}(?:[a-z0-9]{13})?', {
    entropy: 3,
  }),
  prefixed(
    'buildkite-agent-token',
    'Buildkite agent or cluster token',
    ['bkaa_', 'bkar_', 'bkct_', 'bkpt_', 'bkpat_', 'bkps_', 'bkaj_'],
    '[\\w-]{54,333}',
    { entropy: 3.5 },
  ),
  prefixed(
    'canadian-digital-service-notify-api-key',
    'GC Notify API key',
    ['gcntfy-'],
    `[a-z0-9_]{1,64}-${UUID}-${UUID}`,
    { entropy: 3 },
  ),
  prefixed('canva-client-secret', 'Canva client secret', ['cnvca'], '[\\w-]{51}', { entropy: 3.5 }),
  prefixed('cerebras-api-key', 'Cerebras API key', ['csk-'], '[a-z0-9]{48}', { entropy: 3.5 }),
  prefixed('checkout-secret-key', 'Checkout.com secret key', ['sk_sbox_', 'sk_'], UUID, { entropy: 3 }),
  prefixed('circleci-personal-token', 'CircleCI personal API token', ['CCIPAT_'], `${ALNUM}{22}_${HEX}{40}`, {
    entropy: 3,
  }),
  prefixed('clickup-personal-api-token', 'ClickUp personal API token', ['pk_'], '\\d{6,9}_[A-Z0-9]{32}', {
    entropy: 3,
  }),
  prefixed('cloudsmith-api-key', 'Cloudsmith API key', ['csa_'], `${HEX}{30}${ALNUM}{6}`, { entropy: 3 }),
  prefixed('cockroachlabs-cloud-api-key', 'CockroachDB Cloud API key', ['CCDB1_'], `${ALNUM}{22}_${ALNUM}{40}`, {
    entropy: 3.5,
  }),
  prefixed('configcat-sdk-key', 'ConfigCat SDK key', ['configcat-sdk-1/'], '[\\w-]{22}/[\\w-]{22}', { entropy: 3 }),
  prefixed('contentful-personal-access-token', 'Contentful personal access token', ['CFPAT-'], '[\\w-]{43}', {
    entropy: 3.5,
  }),
  prefixed('crates-io-api-key', 'crates.io API token', ['cio'], `${ALNUM}{32}`, { entropy: 4, accepts: hasDigit }),
  prefixed('datastax-astra-token', 'DataStax Astra application token', ['AstraCS:'], `${ALNUM}{20,40}:${HEX}{64}`, {
    entropy: 3,
  }),
  prefixed('deno-deploy-token', 'Deno Deploy access token', ['ddp_', 'ddo_'], `${ALNUM}{36}`, { entropy: 3.5 }),
  prefixed('devcycle-server-sdk-key', 'DevCycle server SDK key', ['dvc_server_'], '[\\w-]{8,80}', { entropy: 3 }),
  prefixed('devin-api-key', 'Devin API key', ['apk_user_', 'apk_'], '[A-Za-z0-9+/]{80,180}={0,2}', { entropy: 4.5 }),
  prefixed('devin-service-user-token', 'Devin service user token', ['cog_'], '[a-z2-7]{52}', { entropy: 3.5 }),
  prefixed(
    'discord-webhook-url',
    'Discord webhook URL',
    ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
    '\\d{17,20}/[\\w-]{60,72}',
    { entropy: 3, wordStart: false },
  ),
  prefixed('docker-swarm-join-token', 'Docker swarm join token', ['SWMTKN-1-'], '[a-z0-9]{50,60}-[a-z0-9]{24,30}', {
    entropy: 3.5,
  }),
  prefixed('docker-swarm-unlock-key', 'Docker swarm unlock key', ['SWMKEY-1-'], '[A-Za-z0-9+/]{40,50}', { entropy: 4 }),
  prefixed('dockerhub-organization-access-token', 'Docker Hub organization access token', ['dckr_oat_'], '[\\w-]{32}', {
    entropy: 3.5,
  }),
  prefixed(
    'doppler-token',
    'Doppler token',
    ['dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    '(?:[\\w-]{1,64}\\.)?[A-Za-z0-9]{40,44}',
    { entropy: 3.5 },
  ),
  prefixed('dropbox-short-lived-token', 'Dropbox access token', ['sl.'], '[\\w=-]{130,1400}', { entropy: 4.5 }),
  prefixed('elastic-cloud-api-key', 'Elastic Cloud API key', ['essu_'], '[\\w-]{60,200}={0,2}', { entropy: 4 }),
  prefixed('elevenlabs-api-key', 'ElevenLabs API key', ['sk_'], `${HEX}{48}`, { entropy: 3 }),
  prefixed('endorlabs-api-key', 'Endor Labs API key or secret', ['endr+'], '[A-Za-z0-9-]{16}', { entropy: 3 }),
  prefixed('exoscale-api-key', 'Exoscale API key', ['EXO'], `${ALNUM}{24,30}`, { entropy: 3.5, accepts: hasDigit }),
  prefixed('gcp-gemini-api-key', 'Google Gemini API key', ['AQ.Ab8RN6'], '[\\w-]{44}', { entropy: 3.5 }),
  prefixed('google-oauth-client-secret', 'Google OAuth client secret', ['GOCSPX-'], '[\\w-]{28}', { entropy: 3.5 }),
  prefixed('google-oauth-refresh-token', 'Google OAuth refresh token', ['1//0'], '[\\w-]{40,400}', { entropy: 4 }),
  prefixed('google-oauth-access-token', 'Google OAuth access token', ['ya29.'], '[\\w-]{40,2000}', { entropy: 4 }),
  prefixed(
    'hubspot-private-app-token',
    'HubSpot private app access token',
    ['pat-na1-', 'pat-na2-', 'pat-eu1-'],
    UUID,
    { entropy: 3 },
  ),
  prefixed('ionic-personal-access-token', 'Ionic personal access token', ['ion_'], `${ALNUM}{42}`, { entropy: 3.5 }),
  prefixed('langsmith-api-key', 'LangSmith API key', ['lsv2_pt_', 'lsv2_sk_'], '[0-9a-fA-F]{32}_[0-9a-fA-F]{10}', {
    entropy: 3,
  }),
  prefixed('lichess-personal-access-token', 'Lichess personal access token', ['lip_'], '\\w{16,60}', {
    entropy: 3.5,
    accepts: hasDigit,
  }),
  prefixed('mailersend-api-token', 'MailerSend API token', ['mlsn.'], `${ALNUM}{30,100}`, { entropy: 3.5 }),
  prefixed('mapbox-secret-token', 'Mapbox secret token', ['sk.eyJ'], '[\\w-]{50,400}\\.[\\w-]{20,30}', {
    entropy: 4,
  }),
  prefixed(
    'mercury-api-token',
    'Mercury API token',
    ['mercury_production_', 'mercury_sandbox_'],
    `[a-z]{3,6}_${ALNUM}{40,50}_yrucrem`,
    { entropy: 3 },
  ),
  prefixed('mergify-application-key', 'Mergify application key', ['mergify_application_key_'], '[\\w-]{40,200}', {
    entropy: 3.5,
  }),
  prefixed('midtrans-server-key', 'Midtrans server key', ['Mid-server-', 'SB-Mid-server-'], '[\\w-]{16,40}', {
    entropy: 3,
  }),
  prefixed('minimax-api-key', 'MiniMax API key', ['sk-api-'], '[\\w-]{119}', { entropy: 4 }),
  prefixed(
    'mongodb-atlas-service-account-secret',
    'MongoDB Atlas service account secret',
    ['mdb_sa_sk_'],
    '[\\w-]{40}',
    {
      entropy: 3.5,
    },
  ),
  prefixed('neon-api-key', 'Neon API key', ['napi_'], `${ALNUM}{64}`, { entropy: 4 }),
  prefixed('netlify-personal-access-token', 'Netlify access token', ['nfp_'], '\\w{36,40}', { entropy: 3.5 }),
  prefixed('notion-integration-secret', 'Notion integration token', ['secret_'], `${ALNUM}{43}`, {
    entropy: 4,
    accepts: hasDigit,
  }),
  prefixed('nuget-api-key', 'NuGet API key', ['oy2'], '[a-z0-9]{43}', { entropy: 3.5, accepts: hasDigit }),
  prefixed('nvidia-api-key', 'NVIDIA API key', ['nvapi-'], '[\\w-]{60,70}', { entropy: 4 }),
  prefixed('onesignal-api-key', 'OneSignal API key', ['os_v2_app_', 'os_v2_org_'], '[a-z2-7]{103}', { entropy: 3.5 }),
  prefixed(
    'onfido-api-token',
    'Onfido live API token',
    ['api_live.', 'api_live_us.', 'api_live_ca.'],
    '[\\w-]{20,80}',
    {
      entropy: 3.5,
    },
  ),
  prefixed('openrouter-api-key', 'OpenRouter API key', ['sk-or-v1-'], `${HEX}{64}`, { entropy: 3 }),
  prefixed(
    'paddle-api-key',
    'Paddle API key',
    ['pdl_live_apikey_', 'pdl_sdbx_apikey_'],
    `[a-z0-9]{26}_${ALNUM}{22}_${ALNUM}{3}`,
    { entropy: 3 },
  ),
  prefixed('kolide-api-key', 'Kolide API key', ['k2sk_v1_'], `${ALNUM}{24,48}`, { entropy: 3.5 }),
  prefixed('persona-api-key', 'Persona API key', ['persona_production_', 'persona_sandbox_'], '[\\w-]{20,80}', {
    entropy: 3.5,
  }),
  prefixed('pinecone-api-key', 'Pinecone API key', ['pcsk_'], `${ALNUM}{5,6}_${ALNUM}{63}`, { entropy: 4 }),
  prefixed('pinterest-access-token', 'Pinterest access token', ['pina_'], '[\\w-]{20,200}', { entropy: 3.5 }),
  prefixed('polar-access-token', 'Polar access token', ['polar_at_', 'polar_oat_', 'polar_pat_'], '[\\w-]{20,100}', {
    entropy: 3.5,
  }),
  // A Teams workflow's trigger URL (Power Automate), and the same from Azure Logic Apps (workflows
  // made before the move to powerplatform.com, any Logic App with an HTTP trigger; Azure's and
  // Azure Government's clouds).
  signedTriggerUrl(
    'power-automate-workflow-url',
    'Power Automate (Teams workflow) trigger URL',
    ['environment.api.powerplatform.com'],
    `/powerautomate/automations/direct/workflows/${HEX}{32}/triggers/manual/paths/invoke`,
  ),
  signedTriggerUrl(
    'logic-apps-trigger-url',
    'Azure Logic Apps (Teams workflow) trigger URL',
    ['.logic.azure.com', '.logic.azure.us'],
    `/workflows/${HEX}{32}/triggers/[\\w%-]{1,80}/paths/invoke`,
  ),
  // Logic Apps Standard runs on App Service: its workflows' trigger URLs are signed the same way.
  signedTriggerUrl(
    'logic-apps-standard-trigger-url',
    'Azure Logic Apps (Standard) trigger URL',
    ['.azurewebsites.net'],
    `/api/[\\w.~%-]{1,80}/triggers/[\\w%-]{1,80}/invoke`,
  ),
  // An Azure Functions URL with its function or host key in ?code= (how the portal's "Get function
  // URL" gives it): whoever holds it can call the function. Generated keys are base64 of 40 bytes
  // (56 characters, == at the end, + and / escaped or not; the newer ones carry AzFu), which an
  // OAuth code= is not.
  prefixed(
    'azure-functions-key-url',
    'Azure Functions key in a function URL',
    ['.azurewebsites.net'],
    `(?::\\d{1,5})?/api/[^\\s"'<>?]{1,200}\\?(?:[^\\s"'<>]{0,300}?&)?code=(?:[\\w/+-]|%2[BbFf]){54}(?:==|%3[Dd]%3[Dd])`,
    { wordStart: false },
  ),
  prefixed('posthog-personal-api-key', 'PostHog personal API key', ['phx_'], '[\\w-]{41,49}', { entropy: 3.5 }),
  prefixed('proof-api-key', 'Proof API key', ['prf_cli_', 'prf_'], '[\\w-]{20,80}', {
    entropy: 3.5,
    accepts: hasDigit,
  }),
  prefixed('rainforest-pay-api-key', 'Rainforest Pay API key', ['apikey_'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('ramp-client-secret', 'Ramp client secret', ['ramp_sec_'], `${ALNUM}{48}`, { entropy: 4 }),
  prefixed('redirect-pizza-api-token', 'redirect.pizza API token', ['rpa_'], `${ALNUM}{30}`, { entropy: 3.5 }),
  prefixed('render-api-key', 'Render API key', ['rnd_'], `${ALNUM}{28}`, { entropy: 3.5 }),
  prefixed('replicate-api-token', 'Replicate API token', ['r8_'], `${ALNUM}{37}`, { entropy: 3.5 }),
  prefixed('resend-api-key', 'Resend API key', ['re_'], `${ALNUM}{8}_${ALNUM}{24}`, { entropy: 3.5 }),
  prefixed('rootly-api-key', 'Rootly API key', ['rootly_'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('runpod-api-key', 'RunPod API key', ['rpa_'], `[A-Z0-9]{40}${ALNUM}{6}`, { entropy: 3.5 }),
  prefixed('salesforce-access-token', 'Salesforce access token', ['00D'], `${ALNUM}{12}![\\w.-]{80,260}`, {
    entropy: 4,
  }),
  prefixed('samsara-api-token', 'Samsara API token', ['samsara_api_'], `${ALNUM}{26,32}`, { entropy: 3.5 }),
  prefixed('segment-public-api-token', 'Segment Public API token', ['sgp_'], `${ALNUM}{64}`, { entropy: 4 }),
  prefixed('slack-legacy-bot-token', 'Slack bot token', ['xoxb-'], '\\d{8,14}-[A-Za-z0-9]{18,26}', { entropy: 3.5 }),
  prefixed('slack-session-cookie', 'Slack session cookie', ['xoxd-'], '[\\w/%+-]{100,1000}={0,2}', { entropy: 4 }),
  prefixed('slack-session-token', 'Slack session token', ['xoxc-'], `\\d{9,15}-\\d{9,15}-\\d{9,15}-${HEX}{64}`, {
    entropy: 3,
  }),
  prefixed('sonar-token', 'SonarQube token', ['squ_', 'sqp_', 'sqa_'], `${HEX}{40}`, { entropy: 3 }),
  prefixed('stripe-webhook-secret', 'webhook signing secret (Stripe, Svix)', ['whsec_'], '[A-Za-z0-9+/=]{32,100}', {
    entropy: 4,
  }),
  prefixed('supabase-management-token', 'Supabase access token', ['sbp_'], '(?:v0_)?[a-f0-9]{40}', { entropy: 3 }),
  prefixed('supabase-secret-key', 'Supabase secret key', ['sb_secret_'], '[\\w-]{31}', { entropy: 3.5 }),
  prefixed('thunderstore-api-token', 'Thunderstore API token', ['tss_'], '[\\w-]{20,80}', { entropy: 3.5 }),
  prefixed('tines-webhook-url', 'Tines webhook URL', ['.tines.com/webhook/'], '[a-z0-9]{32}/[a-z0-9]{32}', {
    entropy: 3,
    wordStart: false,
  }),
  prefixed('togetherai-api-key', 'Together AI API key', ['tgp_v1_'], '[\\w-]{43}', { entropy: 4 }),
  prefixed('unkey-root-key', 'Unkey root key', ['unkey_'], `${ALNUM}{20,32}`, { entropy: 3.5 }),
  prefixed('upcloud-api-token', 'UpCloud API token', ['ucat_'], `${ALNUM}{24,32}`, { entropy: 3.5 }),
  prefixed('val-town-api-token', 'Val Town API token', ['vtwn_'], '[\\w-]{20,80}', { entropy: 3.5 }),
  prefixed('wakatime-api-key', 'WakaTime API key', ['waka_'], '[a-z0-9-]{36,64}', { entropy: 3.5 }),
  prefixed('wandb-api-key', 'Weights & Biases API key', ['wandb_v1_'], '\\w{77}', { entropy: 4 }),
  prefixed(
    'workato-developer-api-token',
    'Workato developer API token',
    ['wrka'],
    '(?:[a-z]{2})?-eyJ[\\w-]{8,2000}\\.[\\w-]{16,4000}\\.[\\w-]{64,1000}',
    { entropy: 4 },
  ),
  prefixed('xai-api-key', 'xAI API key', ['xai-'], '[\\w-]{70,120}', { entropy: 4 }),
  prefixed('xata-api-key', 'Xata API key', ['xau_'], `${ALNUM}{32,64}`, { entropy: 3.5 }),
  prefixed('zoho-oauth-token', 'Zoho OAuth token', ['1000.'], `${HEX}{32}\\.${HEX}{32}`, { entropy: 3 }),
  prefixed('zuplo-api-key', 'Zuplo API key', ['zpka_'], `[a-z0-9]{32}_${HEX}{8}`, { entropy: 3 }),
  {
    // Asaas writes its keys with a leading $ ($aact_prod_…): the secret starts after it (a value
    // that starts with $ reads as a shell variable).
    id: 'asaas-api-token',
    kind: 'Asaas API key',
    keywords: ['$aact_'],
    pattern: new RegExp(`\\$(?<secret>aact_(?:prod|hmlg)_[\\w-]{20,300})${END}`, 'dy'),
    secretGroup: 0,
    entropy: 3.5,
    wordStart: true,
    distinctive: true,
  },
  {
    // Endpoint=https://<name>.azconfig.io;Id=<id>;Secret=<base64>
    id: 'azure-app-configuration-connection-string',
    kind: 'Azure App Configuration access key',
    keywords: ['.azconfig.io;Id='],
    pattern: /\.azconfig\.io;Id=[^;\s'"]{4,80};Secret=(?<secret>[A-Za-z0-9+/]{36,100}={0,2})/diy,
    secretGroup: 0,
    entropy: 3.5,
    wordStart: false,
    distinctive: true,
  },
  {
    // Firebase Cloud Messaging's legacy server key: AAAA, 7 characters, ":APA91b" and 134 more.
    id: 'firebase-fcm-server-key',
    kind: 'Firebase Cloud Messaging server key',
    keywords: [':APA91b'],
    back: 11,
    pattern: new RegExp(`(?<secret>AAAA[\\w-]{7}:APA91b[\\w-]{134})${END}`, 'dy'),
    secretGroup: 0,
    entropy: 4,
    wordStart: false,
    distinctive: true,
  },
  {
    // A Telegram bot token: the bot's numeric id, ":AA" and 33 more, whatever it is called.
    id: 'telegram-bot-token-shape',
    kind: 'Telegram bot token',
    keywords: [':AA'],
    back: 10,
    pattern: new RegExp(`[^]{0,2}?(?<![\\w-])(?<secret>\\d{8,10}:AA[\\w-]{33})${END}`, 'dy'),
    secretGroup: 0,
    entropy: 3.5,
    wordStart: false,
    distinctive: true,
  },
  {
    // A Tableau personal access token: base64 of 16 bytes, ":" and 32 letters and digits.
    id: 'tableau-personal-access-token',
    kind: 'Tableau personal access token',
    keywords: ['==:'],
    back: 22,
    pattern: new RegExp(`(?<![A-Za-z0-9+/])(?<secret>[A-Za-z0-9+/]{22}==:${ALNUM}{32})${END}`, 'dy'),
    secretGroup: 0,
    entropy: 4,
    wordStart: false,
    distinctive: true,
  },
];

export const NEWER_NAMED: CredentialFormat[] = [
  named(
    'airtable-oauth-token',
    'Airtable OAuth token',
    'airtable',
    ['airtable'],
    `${ALNUM}{10,40}\\.v1\\.[\\w-]{10,400}\\.${HEX}{10,100}`,
  ),
  named('aiven-auth-token', 'Aiven token', 'aiven', ['aiven'], '[A-Za-z0-9/+=]{372}', { entropy: 4 }),
  named('amplitude-secret-key', 'Amplitude secret key', 'amplitude', ['amplitude'], `${HEX}{32}`),
  named('assemblyai-api-key', 'AssemblyAI API key', 'assemblyai', ['assemblyai'], '[a-z0-9]{32}'),
  named(
    'azure-storage-account-key-named',
    'Azure storage account key',
    // storageKey, STORAGE_ACCOUNT_KEY, account_key, AzureDefaultAccountKey: the 88 characters say the rest
    '(?:storage|account)[_.-]?(?:account[_.-]?)?(?:access[_.-]?)?key',
    ['storage', 'account'],
    '[A-Za-z0-9+/]{86}==',
    { entropy: 4 },
  ),
  named('bitly-access-token', 'Bitly access token', 'bitly', ['bitly'], `${HEX}{40}`),
  named(
    'circleci-project-token',
    'CircleCI token',
    'circleci|circle_token',
    ['circleci', 'circle_token'],
    `${HEX}{40}`,
  ),
  named('civo-api-key', 'Civo API key', 'civo', ['civo'], '[a-z0-9]{50}'),
  named('cloudinary-api-secret', 'Cloudinary API secret', 'cloudinary', ['cloudinary'], '[\\w-]{27,32}', {
    entropy: 3.5,
  }),
  named('coveralls-repo-token', 'Coveralls token', 'coveralls', ['coveralls'], `[A-Za-z0-9-]{32,37}`, { entropy: 3.5 }),
  named('cursor-api-key', 'Cursor API key', 'cursor', ['cursor'], `key_${HEX}{64}`),
  named('databento-api-key', 'Databento API key', 'databento', ['databento'], `db-${ALNUM}{29}`),
  named('deepgram-api-key', 'Deepgram API key', 'deepgram', ['deepgram'], `${HEX}{40}`),
  named('deepseek-api-key', 'DeepSeek API key', 'deepseek', ['deepseek'], `sk-${HEX}{32}`),
  named('disqus-api-key', 'Disqus API key', 'disqus', ['disqus'], '[a-z0-9]{64}'),
  named('exoscale-api-secret', 'Exoscale API secret', 'exoscale', ['exoscale'], '[\\w-]{40,60}', { entropy: 3.5 }),
  // the X-Figma-Token header
  named(
    'figma-header-token',
    'Figma personal access token',
    'figma[-_]?token',
    ['figma'],
    '[0-9A-F]{4}-[0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12}',
  ),
  named(
    'fullstory-api-key',
    'FullStory API key',
    'fullstory|fs_api',
    ['fullstory', 'fs_api'],
    '(?:na1|eu1)\\.[A-Za-z0-9+/=]{20,200}',
  ),
  named('gitea-access-token', 'Gitea access token', 'gitea', ['gitea'], `${HEX}{40}`),
  named('greptile-api-key', 'Greptile API key', 'greptile', ['greptile'], '[A-Za-z0-9+/]{48}', { entropy: 4 }),
  named('gumroad-access-token', 'Gumroad access token', 'gumroad', ['gumroad'], `${HEX}{64}|[\\w-]{43}`),
  named('honeycomb-api-key', 'Honeycomb API key', 'honeycomb', ['honeycomb'], `${HEX}{32}|[a-z0-9]{22}`),
  named('ibm-cloud-api-key', 'IBM Cloud API key', 'ibm(?:cloud)?', ['ibm', 'ibmcloud'], '[\\w-]{44}', { entropy: 4 }),
  named('influxdb-api-token', 'InfluxDB API token', 'influx', ['influx'], '[\\w-]{86}==', { entropy: 4 }),
  named('infomaniak-api-token', 'Infomaniak API token', 'infomaniak', ['infomaniak'], '[\\w-]{60,100}', { entropy: 4 }),
  named('jumpcloud-api-key', 'JumpCloud API key', 'jumpcloud', ['jumpcloud'], '[a-z0-9]{40}'),
  named('kagi-api-key', 'Kagi API key', 'kagi', ['kagi'], '[\\w-]{11}\\.[\\w-]{43}'),
  named('kimi-api-key', 'Moonshot (Kimi) API key', 'kimi|moonshot', ['kimi', 'moonshot'], `sk-${ALNUM}{48}`),
  named('klaviyo-api-key', 'Klaviyo private API key', 'klaviyo', ['klaviyo'], 'pk_[a-z0-9]{34}'),
  named('lark-app-secret', 'Lark (Feishu) app secret', 'lark|feishu', ['lark', 'feishu'], `${ALNUM}{32}`, {
    entropy: 3.5,
  }),
  named('mistral-api-key', 'Mistral API key', 'mistral', ['mistral'], `${ALNUM}{32}`, { entropy: 3.5 }),
  named('ngrok-authtoken', 'ngrok authtoken', 'ngrok', ['ngrok'], `${ALNUM}{25,27}_${ALNUM}{20,22}`),
  named('ollama-api-key', 'Ollama API key', 'ollama', ['ollama'], `${HEX}{32}\\.[\\w-]{24}`),
  named('openweather-api-key', 'OpenWeather API key', 'openweather|pyowm', ['openweather', 'pyowm'], `${HEX}{32}`),
  named('pinecone-api-key-uuid', 'Pinecone API key', 'pinecone', ['pinecone'], UUID),
  named('plivo-auth-token', 'Plivo auth token', 'plivo', ['plivo'], `${ALNUM}{40}`, { entropy: 3.5 }),
  named('postmark-server-token', 'Postmark server token', 'postmark', ['postmark'], UUID),
  named('scaleway-secret-key', 'Scaleway secret key', 'scaleway|scw_secret', ['scaleway', 'scw_secret'], UUID),
  named('sourcegraph-legacy-token', 'Sourcegraph access token', 'sourcegraph', ['sourcegraph'], '[a-fA-F0-9]{40}'),
  named('stability-api-key', 'Stability AI API key', 'stability', ['stability'], `sk-${ALNUM}{48}`),
  named('telnyx-api-key', 'Telnyx API key', 'telnyx', ['telnyx'], 'KEY[\\w-]{55}'),
  named('trello-api-token', 'Trello API key or token', 'trello', ['trello'], `${HEX}{64}|${HEX}{32}|ATTA${HEX}{64}`),
  named('upstage-api-key', 'Upstage API key', 'upstage', ['upstage'], `up_${ALNUM}{30,50}|${ALNUM}{40,50}`, {
    entropy: 3.5,
  }),
  named('vercel-api-token', 'Vercel API token', 'vercel', ['vercel'], `${ALNUM}{24}`, { entropy: 3.5 }),
  named(
    'wakatime-api-key-uuid',
    'WakaTime API key',
    'wakatime|waka_time',
    ['wakatime', 'waka_time'],
    `(?:waka_)?${UUID}`,
  ),
  named('weatherstack-api-key', 'weatherstack API key', 'weatherstack', ['weatherstack'], `${HEX}{32}`),
  named('wandb-api-key-hex', 'Weights & Biases API key', 'wandb', ['wandb'], `${HEX}{40}`),
  named('zai-api-key', 'Z.ai (Zhipu) API key', 'zai|zhipu|glm', ['zai', 'zhipu', 'glm'], `${HEX}{32}\\.${ALNUM}{16}`),
];
