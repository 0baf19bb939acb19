// Credential formats the engine recognises beyond secretlint's recommended preset (which the
// `secret` scan rule runs for GitHub, GitLab PATs, AWS, Slack, Stripe, npm, OpenAI, Anthropic,
// and URLs with passwords): gitleaks' default rules with a recognisable shape, and
// (newer-providers.ts) the providers betterleaks and trufflehog know that gitleaks lacks, written
// here as data from the providers' documented shapes. Long by nature: one entry per format.
//
// Left out on purpose (gitleaks or betterleaks has them):
// - client, app and account ids (Asana, Bitbucket, Discord, LinkedIn, Looker, MessageBird, Plaid,
//   Sendbird, Sumo Logic; Aikido, Canva, eBay, Lark, MongoDB Atlas service account, Plivo and Ramp
//   ids; Azure tenant and client ids; Alibaba STS key ids, whose STS. prefix also starts
//   AWS.STS.AssumeRole), which identify an app and grant nothing alone;
// - names and hosts (Azure storage account names, Cloudinary cloud names, JFrog, Salesforce,
//   Snowflake and Tableau hosts, Supabase project URLs, PlanetScale ids, Tableau token names,
//   Polymarket addresses), which are not secrets;
// - public tokens (Mapbox pk., Flutterwave public keys, Datadog pub… client tokens, Algolia
//   search-only keys, Lob publishable keys, PostHog project keys phc_, DevCycle client and mobile
//   SDK keys, Midtrans client keys, Supabase publishable keys), which ship in pages and apps by design;
// - JWTs that grant no privileged role and are no Kubernetes service account's (the claims say),
//   unless assigned to a credential's name (access_token = eyJ…) unexpired; Temporal Cloud and
//   Scalr keys are such JWTs;
// - values known only by names as common as key, secret or app key (OVH's application and consumer
//   keys, Polymarket's, Alibaba STS secrets, Box tokens: box is inside sandbox and checkbox), which
//   the generic rules read where the value looks random;
// - keys the Stripe-shaped secretlint rule reports already under Stripe's name (WorkOS, Highnote
//   sk_live_…, Clerk sk_test_…);
// - Facebook app tokens (id|secret) without a provider name, whose shape is too common; Google
//   ADC and service-account files as whole JSON objects (their private key is no-private-key,
//   their client_secret a secret by name); Snowflake PATs, LightOn and data.gov keys, known by
//   context only; .p12/.pfx keystores added as binary files, which carry no added line to report;
// - values shaped as placeholders, which the peers' own tests count as credentials: sequences
//   (12345678-ABCD-…, abc123…, a1B2c3…), runs (aaaa…, QQQQ…, 1111…), fake, example or test inside;
// - a value named only Key in a log line ([DEBUG] Using Key=…), and Jenkins credentials.xml
//   secrets, which Jenkins stores encrypted ({AQAAABAAA…}): trufflehog's test templates.
import type { CredentialFormat } from './format.ts';
import { named, prefixed, UUID } from './format.ts';
import { bech32Holds, isBase64Json, pypiMacaroonHolds } from './checksums.ts';
import { isKubernetesServiceAccountJwt, isLiveJwt, privilegedJwt } from './jwt.ts';
import { NEWER_NAMED, NEWER_PREFIXED } from './newer-providers.ts';
import { CONTEXT_FORMATS } from './context-formats.ts';
import { CREDENTIAL_FILE_FORMATS } from './credential-files.ts';
import { NAMED_VALUES } from './named-values.ts';
import { XML_ELEMENT_FORMATS } from './xml-elements.ts';

const HEX = '[a-f0-9]';
const ALNUM = '[A-Za-z0-9]';

/** Tokens that carry a provider's prefix. */
const PREFIXED: CredentialFormat[] = [
  prefixed(
    '1password-secret-key',
    '1Password secret key',
    ['A3-'],
    '[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
    { entropy: 3.8 },
  ),
  prefixed('adobe-client-secret', 'Adobe client secret', ['p8e-'], '[A-Za-z0-9]{32}', { entropy: 2 }),
  prefixed('age-secret-key', 'age secret key', ['AGE-SECRET-KEY-1'], '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', {
    checksum: bech32Holds,
  }),
  // pat, 14 letters and digits, a dot and 64 hex digits: the shape Airtable documents for its personal access tokens.
  prefixed('airtable-personal-access-token', 'Airtable personal access token', ['pat'], `${ALNUM}{14}\\.${HEX}{64}`, {
    entropy: 3,
  }),
  prefixed('alibaba-access-key-id', 'Alibaba Cloud access key id', ['LTAI'], '[A-Za-z0-9]{20}', { entropy: 2 }),
  prefixed('anthropic-admin-api-key', 'Anthropic admin API key', ['sk-ant-admin01-'], '[\\w-]{93}AA'),
  prefixed('artifactory-api-key', 'Artifactory API key', ['AKCp'], `${ALNUM}{69}`, { entropy: 4.5 }),
  prefixed('artifactory-reference-token', 'Artifactory reference token', ['cmVmd'], `${ALNUM}{59}`, { entropy: 4.5 }),
  // secretlint's AWS rule knows AKIA, A3T, AGPA, AIDA, AROA, AIPA, ANPA, ANVA and ASIA.
  prefixed('aws-access-token', 'AWS access key id', ['ABIA', 'ACCA'], '[A-Z2-7]{16}', { entropy: 3 }),
  prefixed('aws-bedrock-api-key', 'Amazon Bedrock API key', ['ABSK'], '[A-Za-z0-9+/]{109,269}={0,2}', { entropy: 3 }),
  prefixed(
    'aws-amazon-bedrock-api-key-short-lived',
    'Amazon Bedrock API key',
    ['bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t'],
    '[\\w+/=%-]{20,4000}',
    { entropy: 3 },
  ),
  prefixed(
    'authress-service-client-access-key',
    'Authress service client access key',
    ['sc_', 'ext_', 'scauth_', 'authress_'],
    '[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.[a-z0-9+/_=-]{30,120}',
    { entropy: 2, flags: 'i' },
  ),
  prefixed('clickhouse-cloud-api-secret-key', 'ClickHouse Cloud API secret key', ['4b1d'], `${ALNUM}{38}`, {
    entropy: 3,
  }),
  prefixed('clojars-api-token', 'Clojars API token', ['CLOJARS_'], '[a-z0-9]{60}', { entropy: 2, flags: 'i' }),
  prefixed('cloudflare-origin-ca-key', 'Cloudflare Origin CA key', ['v1.0-'], `${HEX}{24}-${HEX}{146}`, { entropy: 2 }),
  prefixed('digitalocean-access-token', 'DigitalOcean OAuth access token', ['doo_v1_'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('digitalocean-pat', 'DigitalOcean personal access token', ['dop_v1_'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('digitalocean-refresh-token', 'DigitalOcean refresh token', ['dor_v1_'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('doppler-api-token', 'Doppler API token', ['dp.pt.'], '[A-Za-z0-9]{43}', { entropy: 2 }),
  prefixed('duffel-api-token', 'Duffel API token', ['duffel_test_', 'duffel_live_'], '[\\w=-]{43}', { entropy: 2 }),
  prefixed('dynatrace-api-token', 'Dynatrace API token', ['dt0c01.'], `${ALNUM}{24}\\.${ALNUM}{64}`, { entropy: 4 }),
  prefixed('easypost-api-token', 'EasyPost API key', ['EZAK', 'EZTK'], `${ALNUM}{54}`, { entropy: 2 }),
  prefixed('facebook-page-access-token', 'Facebook access token', ['EAAM', 'EAAC'], `${ALNUM}{100,400}`, {
    entropy: 4,
  }),
  prefixed('flutterwave-secret-key', 'Flutterwave secret key', ['FLWSECK_TEST-', 'FLWSECK-'], '[a-hA-H0-9]{32}-X', {
    entropy: 2,
  }),
  prefixed(
    'flutterwave-encryption-key',
    'Flutterwave encryption key',
    ['FLWSECK_TEST-', 'FLWSECK_TEST', 'FLWSECK'],
    '[a-hA-H0-9]{12}',
    {
      entropy: 2,
    },
  ),
  prefixed('flyio-access-token', 'Fly.io access token', ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'], '[\\w+/-]{43,400}={0,3}', {
    entropy: 4,
  }),
  prefixed('frameio-api-token', 'Frame.io API token', ['fio-u-'], '[\\w=-]{64}'),
  prefixed('gcp-api-key', 'Google API key', ['AIza'], '[\\w-]{35}', { entropy: 4 }),
  prefixed('gitlab-cicd-job-token', 'GitLab CI/CD job token', ['glcbt-'], '[0-9a-zA-Z]{1,5}_[\\w-]{20}', {
    entropy: 3,
  }),
  prefixed('gitlab-oauth-app-secret', 'GitLab OAuth application secret', ['gloas-'], '[\\w-]{64}', { entropy: 3 }),
  prefixed('gitlab-deploy-token', 'GitLab deploy token', ['gldt-'], '[\\w-]{20}', { entropy: 3 }),
  prefixed('gitlab-feature-flag-client-token', 'GitLab feature flag client token', ['glffct-'], '[\\w-]{20}', {
    entropy: 3,
  }),
  prefixed('gitlab-feed-token', 'GitLab feed token', ['glft-'], '[\\w-]{20}', { entropy: 3 }),
  prefixed('gitlab-incoming-mail-token', 'GitLab incoming mail token', ['glimt-'], '[\\w-]{25}', { entropy: 3 }),
  prefixed('gitlab-kubernetes-agent-token', 'GitLab Kubernetes agent token', ['glagent-'], '[\\w-]{50}', {
    entropy: 3,
  }),
  prefixed('gitlab-ptt', 'GitLab pipeline trigger token', ['glptt-'], `${HEX}{40}`, { entropy: 3 }),
  prefixed('gitlab-rrt', 'GitLab runner registration token', ['GR1348941'], '[\\w-]{20}', { entropy: 3 }),
  prefixed(
    'gitlab-runner-authentication-token',
    'GitLab runner authentication token',
    ['glrt-'],
    '[\\w-]{20,300}(?:\\.[0-9a-z]{9})?',
    { entropy: 3 },
  ),
  prefixed('gitlab-scim-token', 'GitLab SCIM token', ['glsoat-'], '[\\w-]{20}', { entropy: 3 }),
  prefixed('gitlab-session-cookie', 'GitLab session cookie', ['_gitlab_session='], '[0-9a-z]{32}', {
    entropy: 3,
    wordStart: false,
  }),
  // base64 of {"k":"…","n":"…","id":…}: standard base64, so + and / too.
  prefixed('grafana-api-key', 'Grafana API key', ['eyJrIjoi'], '[A-Za-z0-9+/]{70,400}={0,3}', {
    entropy: 3,
    checksum: isBase64Json,
  }),
  prefixed('harness-api-key', 'Harness API key', ['pat.', 'sat.'], `[\\w-]{22}\\.${ALNUM}{24}\\.${ALNUM}{20}`, {
    entropy: 3,
  }),
  prefixed('heroku-api-key-v2', 'Heroku API key', ['HRKU-AA'], '[\\w-]{58}', { entropy: 4 }),
  prefixed('huggingface-organization-api-token', 'Hugging Face organization token', ['api_org_'], '[A-Za-z]{34}', {
    entropy: 2,
  }),
  prefixed('infracost-api-token', 'Infracost API token', ['ico-'], `${ALNUM}{32}`, { entropy: 3 }),
  prefixed('intra42-client-secret', '42 Intra client secret', ['s-s4t2ud-', 's-s4t2af-'], `${HEX}{64}`, { entropy: 3 }),
  prefixed('jfrog-identity-token-prefixed', 'JFrog access token', ['cmVmdGtu'], `${ALNUM}{56}`, { entropy: 4 }),
  prefixed('new-relic-user-api-key', 'New Relic user API key', ['NRAK-'], '[A-Z0-9]{27}'),
  prefixed('new-relic-insert-key', 'New Relic insert key', ['NRII-'], '[\\w-]{32}'),
  prefixed('new-relic-browser-api-token', 'New Relic browser API token', ['NRJS-'], `${HEX}{19}`),
  prefixed('octopus-deploy-api-key', 'Octopus Deploy API key', ['API-'], '[A-Z0-9]{26}', { entropy: 3 }),
  prefixed('openshift-user-token', 'OpenShift user token', ['sha256~'], '[\\w-]{43}', { entropy: 3.5 }),
  prefixed('perplexity-api-key', 'Perplexity API key', ['pplx-'], `${ALNUM}{48}`, { entropy: 4 }),
  prefixed('planetscale-api-token', 'PlanetScale API token', ['pscale_tkn_'], '[\\w=.-]{32,64}', { entropy: 3 }),
  prefixed('planetscale-oauth-token', 'PlanetScale OAuth token', ['pscale_oauth_'], '[\\w=.-]{32,64}', { entropy: 3 }),
  prefixed('planetscale-password', 'PlanetScale password', ['pscale_pw_'], '[\\w=.-]{32,64}', { entropy: 3 }),
  prefixed('postman-api-token', 'Postman API key', ['PMAK-'], `${HEX}{24}-${HEX}{34}`, { entropy: 3 }),
  prefixed('prefect-api-token', 'Prefect API key', ['pnu_'], `${ALNUM}{36}`, { entropy: 2 }),
  prefixed('pulumi-api-token', 'Pulumi access token', ['pul-'], `${HEX}{40}`, { entropy: 2 }),
  // A macaroon whose location is pypi.org or test.pypi.org (base64 AgEIcHlwaS5vcmc, AgENdGVzdC5weXBpLm9yZw).
  prefixed(
    'pypi-upload-token',
    'PyPI upload token',
    ['pypi-AgEIcHlwaS5vcmc', 'pypi-AgENdGVzdC5weXBpLm9yZw'],
    '[\\w-]{50,1000}',
    {
      entropy: 3,
      checksum: pypiMacaroonHolds,
    },
  ),
  prefixed('readme-api-token', 'ReadMe API key', ['rdme_'], '[a-z0-9]{70}', { entropy: 2 }),
  prefixed('rubygems-api-token', 'RubyGems API key', ['rubygems_'], `${HEX}{48}`, { entropy: 2 }),
  prefixed('scalingo-api-token', 'Scalingo API token', ['tk-us-'], '[\\w-]{48}', { entropy: 2 }),
  prefixed('sendgrid-api-token', 'SendGrid API key', ['SG.'], '[\\w-]{22}\\.[\\w-]{43}', { entropy: 2 }),
  prefixed('sendinblue-api-token', 'Brevo (Sendinblue) API key', ['xkeysib-'], `${HEX}{64}-[A-Za-z0-9]{16}`, {
    entropy: 2,
  }),
  prefixed(
    'sentry-org-token',
    'Sentry organization token',
    ['sntrys_eyJpYXQiO'],
    '[A-Za-z0-9+/]{10,400}={0,2}_[A-Za-z0-9+/]{43}',
    // sntrys_, base64 of its JSON claims, _, the secret
    { entropy: 4.5, checksum: (token) => isBase64Json(token.slice('sntrys_'.length, token.lastIndexOf('_'))) },
  ),
  prefixed('sentry-user-token', 'Sentry user token', ['sntryu_'], `${HEX}{64}`, { entropy: 3.5 }),
  prefixed('settlemint-access-token', 'SettleMint access token', ['sm_aat_', 'sm_pat_', 'sm_sat_'], `${ALNUM}{16}`, {
    entropy: 3,
  }),
  prefixed('shippo-api-token', 'Shippo API token', ['shippo_live_', 'shippo_test_'], '[a-fA-F0-9]{40}', { entropy: 2 }),
  prefixed(
    'slack-config-token',
    'Slack configuration token',
    ['xoxe.xoxb-', 'xoxe.xoxp-', 'xoxe-'],
    '\\d-[A-Za-z0-9]{146,166}',
    { entropy: 2 },
  ),
  prefixed('slack-legacy-token', 'Slack legacy token', ['xoxs-'], '\\d{1,20}-\\d{1,20}-\\d{1,20}-[a-fA-F\\d]{8,128}', {
    entropy: 2,
  }),
  prefixed(
    'slack-legacy-workspace-token',
    'Slack workspace token',
    ['xoxa-', 'xoxr-'],
    '(?:\\d-)?(?:\\d{6,15}-){0,3}[0-9a-zA-Z]{8,48}',
    {
      entropy: 2,
    },
  ),
  prefixed('slack-user-token', 'Slack user token', ['xoxe-'], '(?:[0-9]{10,13}-){3}[a-zA-Z0-9-]{28,34}', {
    entropy: 2,
  }),
  prefixed(
    'slack-webhook-url',
    'Slack webhook URL',
    ['hooks.slack.com/workflows/', 'hooks.slack.com/triggers/'],
    '[A-Za-z0-9+/]{43,120}',
    { wordStart: false },
  ),
  prefixed('sourcegraph-access-token', 'Sourcegraph access token', ['sgp_'], `(?:${HEX}{16}_|local_)?${HEX}{40}`, {
    entropy: 3,
  }),
  prefixed('square-access-token', 'Square access token', ['sq0atp-', 'sq0csp-', 'EAAA'], '[\\w-]{22,60}', {
    entropy: 3,
  }),
  prefixed(
    'teams-webhook',
    'Microsoft Teams webhook URL',
    ['.webhook.office.com/webhookb2/'],
    // Today's URLs end in /V2 and a signature.
    `${UUID}@${UUID}/IncomingWebhook/[a-z0-9]{32}/${UUID}(?:/V2[\\w-]{20,200})?`,
    { wordStart: false },
  ),
  // SK and 32 hex digits: the keywords carry the first digit (keywords have three characters at least).
  prefixed(
    'twilio-api-key',
    'Twilio API key',
    [...'0123456789abcdefABCDEF'].map((digit) => `SK${digit}`),
    '[0-9a-fA-F]{31}',
    {
      entropy: 3,
    },
  ),
  prefixed('typeform-api-token', 'Typeform personal access token', ['tfp_'], '[\\w.=-]{59}'),
  prefixed('vault-batch-token', 'HashiCorp Vault batch token', ['hvb.'], '[\\w-]{138,300}', { entropy: 4 }),
  prefixed('hashicorp-tf-api-token', 'Terraform Cloud API token', ['.atlasv1.'], '[\\w=-]{60,70}', {
    entropy: 3.5,
    wordStart: false,
  }),
  prefixed('azure-storage-account-key', 'Azure storage account key', ['AccountKey='], '[A-Za-z0-9+/]{86}==', {
    entropy: 4,
    wordStart: false,
  }),
  prefixed('azure-shared-access-key', 'Azure shared access key', ['SharedAccessKey='], '[A-Za-z0-9+/]{42,43}=', {
    entropy: 4,
    wordStart: false,
  }),
  // A JWT's header starts {"alg": or {"typ": or {"kid": (base64 eyJhbGciOi, eyJ0eXAiOi, eyJraWQiOi).
  prefixed(
    'jwt-privileged',
    'JSON Web Token with a privileged role',
    ['eyJhbGciOi', 'eyJ0eXAiOi', 'eyJraWQiOi'],
    '[\\w-]{0,2000}\\.eyJ[\\w-]{10,4000}\\.[\\w-]{20,1000}',
    { accepts: (token) => isLiveJwt(token) && privilegedJwt(token) },
  ),
  prefixed(
    'kubernetes-service-account-token',
    'Kubernetes service account token',
    ['eyJhbGciOi', 'eyJ0eXAiOi', 'eyJraWQiOi'],
    '[\\w-]{0,2000}\\.eyJ[\\w-]{10,4000}\\.[\\w-]{20,1000}',
    { accepts: (token) => isLiveJwt(token) && isKubernetesServiceAccountJwt(token) },
  ),
];

/** Values recognised by the provider's name they are assigned to. */
const NAMED: CredentialFormat[] = [
  named('adafruit-api-key', 'Adafruit API key', 'adafruit', ['adafruit'], '[a-z0-9_-]{32}'),
  named('adobe-client-id', 'Adobe client id', 'adobe', ['adobe'], `${HEX}{32}`),
  named(
    'airtable-api-key',
    'Airtable API key or personal access token',
    'airtable',
    ['airtable'],
    `pat${ALNUM}{14}\\.${HEX}{64}|key[a-z0-9]{14}`,
  ),
  named('algolia-api-key', 'Algolia API key', 'algolia', ['algolia'], '[a-z0-9]{32}', {
    // A search-only key is public by design (it ships in the page).
    allowlist: { regexes: [/search/i], target: 'match' },
  }),
  named('alibaba-secret-key', 'Alibaba Cloud secret key', 'alibaba', ['alibaba'], '[a-z0-9]{30}'),
  named('asana-client-secret', 'Asana client secret', 'asana', ['asana'], '[a-z0-9]{32}'),
  named(
    'atlassian-api-token',
    'Atlassian API token',
    'atlassian|confluence|jira',
    ['atlassian', 'confluence', 'jira'],
    'ATATT3[\\w=-]{186}|[a-z0-9]{24}',
    { entropy: 3.5 },
  ),
  named('beamer-api-token', 'Beamer API token', 'beamer', ['beamer'], 'b_[\\w=-]{44}'),
  named('bitbucket-client-secret', 'Bitbucket client secret', 'bitbucket', ['bitbucket'], '[\\w=-]{64}|[a-z0-9]{32}'),
  named('bittrex-key', 'Bittrex API key', 'bittrex', ['bittrex'], '[a-z0-9]{32}'),
  named('cisco-meraki-api-key', 'Cisco Meraki API key', 'meraki', ['meraki'], `${HEX}{40}`),
  named('cloudflare-api-key', 'Cloudflare API key', 'cloudflare', ['cloudflare'], '[\\w-]{40}|[a-f0-9]{37}'),
  named('codecov-access-token', 'Codecov access token', 'codecov', ['codecov'], `[a-z0-9]{32}|${UUID}`),
  named('cohere-api-token', 'Cohere API key', 'cohere|co_api_key', ['cohere', 'co_api_key'], '[a-zA-Z0-9]{40}', {
    entropy: 4,
  }),
  named('coinbase-access-token', 'Coinbase access token', 'coinbase', ['coinbase'], '[\\w-]{64}'),
  named('confluent-secret-key', 'Confluent secret key', 'confluent', ['confluent'], '[a-z0-9]{64}|[a-z0-9]{16}'),
  named('contentful-delivery-api-token', 'Contentful delivery API token', 'contentful', ['contentful'], '[\\w=-]{43}'),
  named(
    'datadog-access-token',
    'Datadog API key',
    'datadog|dd_api_key|dd_app_key',
    ['datadog', 'dd_api_key', 'dd_app_key'],
    '[a-z0-9]{40}|[a-f0-9]{32}',
  ),
  named(
    'defined-networking-api-token',
    'Defined Networking API token',
    'dnkey',
    ['dnkey'],
    'dnkey-[\\w=-]{26}-[\\w=-]{52}',
  ),
  named(
    'discord-api-token',
    'Discord bot token or client secret',
    'discord',
    ['discord'],
    `${HEX}{64}|[\\w=-]{32}|[MN][\\w-]{23,25}\\.[\\w-]{6}\\.[\\w-]{27,38}`,
  ),
  named(
    'droneci-access-token',
    'Drone CI access token',
    'droneci|drone_token',
    ['droneci', 'drone_token'],
    '[a-z0-9]{32}',
  ),
  named(
    'dropbox-api-token',
    'Dropbox API token',
    'dropbox',
    ['dropbox'],
    'sl\\.[\\w=-]{135,140}|[a-z0-9]{11}AAAAAAAAAA[\\w=-]{43}|[a-z0-9]{15}',
    { uniformRunsAllowed: true },
  ),
  named('etsy-access-token', 'Etsy access token', 'etsy', ['etsy'], '[a-z0-9]{24}'),
  named(
    'facebook-secret',
    'Facebook app secret',
    'facebook|fb_app_secret',
    ['facebook', 'fb_app_secret'],
    // an app secret, or an app access token (app id|secret)
    `${HEX}{32}|\\d{15,16}\\|[\\w-]{27,40}`,
  ),
  named('fastly-api-token', 'Fastly API token', 'fastly', ['fastly'], '[\\w=-]{32}'),
  named('finicity-client-secret', 'Finicity client secret', 'finicity', ['finicity'], `${HEX}{32}|[a-z0-9]{20}`),
  named('finnhub-access-token', 'Finnhub access token', 'finnhub', ['finnhub'], '[a-z0-9]{20}'),
  named('flickr-access-token', 'Flickr API key', 'flickr', ['flickr'], '[a-z0-9]{32}'),
  named('freshbooks-access-token', 'FreshBooks access token', 'freshbooks', ['freshbooks'], '[a-z0-9]{64}'),
  named('gitter-access-token', 'Gitter access token', 'gitter', ['gitter'], '[\\w-]{40}'),
  named('gocardless-api-token', 'GoCardless access token', 'gocardless', ['gocardless'], 'live_[\\w=-]{40}'),
  named('heroku-api-key', 'Heroku API key', 'heroku', ['heroku'], UUID),
  named('hubspot-api-key', 'HubSpot API key', 'hubspot', ['hubspot'], `${UUID}|pat-(?:na|eu)1-${UUID}`),
  named('intercom-api-key', 'Intercom access token', 'intercom', ['intercom'], '[\\w=-]{60}'),
  named(
    'jfrog-api-key',
    'JFrog API key',
    'jfrog|artifactory|bintray',
    ['jfrog', 'artifactory', 'bintray'],
    '[a-z0-9]{73}|[a-z0-9]{64}',
  ),
  named('kraken-access-token', 'Kraken API key', 'kraken', ['kraken'], '[\\w/=+-]{80,90}', { entropy: 4 }),
  named('kucoin-access-token', 'KuCoin API key', 'kucoin', ['kucoin'], `${HEX}{24}|${UUID}`),
  named(
    'launchdarkly-access-token',
    'LaunchDarkly access token',
    'launchdarkly',
    ['launchdarkly'],
    `(?:api|sdk|mob)-${UUID}|[\\w=-]{40}`,
  ),
  named('linear-client-secret', 'Linear client secret', 'linear', ['linear'], `${HEX}{32}`, { entropy: 3.2 }),
  named(
    'linkedin-client-secret',
    'LinkedIn client secret',
    'linked[_-]?in',
    ['linkedin', 'linked_in', 'linked-in'],
    '[a-z0-9]{16}',
  ),
  named('looker-client-secret', 'Looker client secret', 'looker', ['looker'], '[a-z0-9]{24}|[a-z0-9]{20}'),
  named('mailchimp-api-key', 'Mailchimp API key', 'mailchimp', ['mailchimp'], `${HEX}{32}-us\\d{1,2}`),
  named(
    'mailgun-api-key',
    'Mailgun API key',
    'mailgun',
    ['mailgun'],
    `key-${HEX}{32}|pubkey-${HEX}{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}`,
  ),
  named('mapbox-api-token', 'Mapbox secret token', 'mapbox', ['mapbox'], 'sk\\.[a-z0-9]{60}\\.[a-z0-9]{22}'),
  named('mattermost-access-token', 'Mattermost access token', 'mattermost', ['mattermost'], '[a-z0-9]{26}'),
  named(
    'messagebird-api-token',
    'MessageBird API key',
    'message[_-]?bird',
    ['messagebird', 'message_bird', 'message-bird'],
    '[a-z0-9]{25}',
  ),
  named('netlify-access-token', 'Netlify access token', 'netlify', ['netlify'], 'nfp_[\\w]{36,40}|[\\w=-]{40,46}'),
  named(
    'new-relic-user-api-id',
    'New Relic API key',
    'new[_-]?relic',
    ['newrelic', 'new_relic', 'new-relic'],
    '[a-z0-9]{64}|[a-f0-9]{40}',
  ),
  named(
    'nytimes-access-token',
    'New York Times API key',
    'nytimes|newyorktimes',
    ['nytimes', 'newyorktimes'],
    '[\\w=-]{32}',
  ),
  named('okta-access-token', 'Okta API token', 'okta', ['okta'], '00[\\w=-]{40}', { entropy: 4 }),
  named(
    'plaid-secret-key',
    'Plaid secret',
    'plaid',
    ['plaid'],
    `access-(?:sandbox|development|production)-${UUID}|[a-z0-9]{30}`,
    { entropy: 3.5 },
  ),
  named(
    'privateai-api-token',
    'Private AI API key',
    'private[_-]?ai',
    ['privateai', 'private_ai', 'private-ai'],
    '[a-z0-9]{32}',
  ),
  named('rapidapi-access-token', 'RapidAPI key', 'rapidapi', ['rapidapi'], '[\\w-]{50}'),
  named('sendbird-access-token', 'Sendbird API token', 'sendbird', ['sendbird'], `${HEX}{40}`),
  named('sentry-access-token', 'Sentry auth token', 'sentry', ['sentry'], `${HEX}{64}`),
  named('snyk-api-token', 'Snyk API token', 'snyk', ['snyk'], UUID),
  named('sonar-api-token', 'SonarQube token', 'sonar', ['sonar'], '(?:squ_|sqp_|sqa_)[a-z0-9]{40}|[a-z0-9]{40}'),
  named('squarespace-access-token', 'Squarespace API key', 'squarespace', ['squarespace'], UUID),
  named(
    'sumologic-access-token',
    'Sumo Logic access key',
    'sumo(?:logic)?',
    ['sumo', 'sumologic'],
    'su[a-zA-Z0-9]{12}|[a-z0-9]{64}',
  ),
  named('telegram-bot-api-token', 'Telegram bot token', 'telegr', ['telegr'], '\\d{5,16}:A[\\w-]{34}'),
  named('travisci-access-token', 'Travis CI access token', 'travis', ['travis'], '[a-z0-9]{22}'),
  named('twilio-auth-token', 'Twilio API key or auth token', 'twilio', ['twilio'], `SK${HEX}{32}|${HEX}{32}`),
  named(
    'sidekiq-secret',
    'Sidekiq Enterprise credential',
    'bundle_(?:enterprise|gems)__contribsys__com',
    ['bundle_enterprise__contribsys__com', 'bundle_gems__contribsys__com'],
    `${HEX}{8}:${HEX}{8}`,
    { entropy: 2 },
  ),
  named('lob-api-key', 'Lob API key', 'lob', ['lob'], `(?:live|test)_${HEX}{35}`),
  // s. and 24 random characters: upper and lower case and digits all appear (s.makeKubeConfigController is a word)
  named('vault-service-token', 'HashiCorp Vault token', 'vault', ['vault'], 's\\.[A-Za-z0-9]{24}', {
    entropy: 3.5,
    accepts: (token) => /\d/.test(token) && /[a-z]/.test(token) && /[A-Z]/.test(token),
  }),
  named('twitch-api-token', 'Twitch API token', 'twitch', ['twitch'], '[a-z0-9]{30}'),
  named(
    'twitter-secret',
    'Twitter (X) API secret',
    'twitter',
    ['twitter'],
    'A{22}[a-zA-Z0-9%]{80,100}|\\d{15,25}-[a-zA-Z0-9]{20,40}|[a-z0-9]{50}|[a-z0-9]{45}|[a-z0-9]{25}',
    { uniformRunsAllowed: true },
  ),
  named(
    'yandex-access-token',
    'Yandex Cloud credential',
    'yandex',
    ['yandex'],
    't1\\.[\\w-]{1,200}={0,2}\\.[\\w-]{86}={0,2}|AQVN[\\w-]{35,38}|YC[\\w-]{38}',
  ),
  named('zendesk-secret-key', 'Zendesk API token', 'zendesk', ['zendesk'], '[a-z0-9]{40}'),
];

export const CREDENTIAL_FORMATS: readonly CredentialFormat[] = [
  ...PREFIXED,
  ...NEWER_PREFIXED,
  ...NAMED,
  ...NEWER_NAMED,
  ...CONTEXT_FORMATS,
  ...CREDENTIAL_FILE_FORMATS,
  ...NAMED_VALUES,
  ...XML_ELEMENT_FORMATS,
];
