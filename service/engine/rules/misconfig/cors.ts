// CORS that lets any origin read responses while sending the user's cookies: every site the user
// visits can then act as the user. Browsers refuse "*" with credentials, so code that wants both
// reflects the request's origin (origin: true, or the Origin header copied into
// Access-Control-Allow-Origin) — which is the same hole. Express/Fastify, FastAPI/Starlette,
// Django, Flask, Spring (allowedOriginPatterns("*")), Go (gin-contrib/cors, rs/cors).
import { isGo, isJavaScript, isJvm, isPython, notTestCode } from '../files.ts';
import type { AddedLine, LineRule } from '../rule.ts';
import { spanOf } from '../rule.ts';

const CREDENTIALS =
  /\bcredentials: ?true\b|\bsupports_credentials\s*=\s*True\b|\ballow_credentials\s*=\s*True\b|\bCORS_ALLOW_CREDENTIALS\s*=\s*True\b|\bAllowCredentials\s*:\s*true\b|\ballowCredentials\s*(?:=\s*["']true["']|\(\s*true\s*\))|Access-Control-Allow-Credentials["']?\s*[:,]\s*["']?true\b/;
const ANY_ORIGIN =
  /\borigins?\s*[:=]\s*(?:["']\*["']|\[\s*["']\*["']\s*\]|true\b)|\bCORS_ALLOW_ALL_ORIGINS\s*=\s*True\b|\bCORS_ORIGIN_ALLOW_ALL\s*=\s*True\b|\bAllowAllOrigins\s*:\s*true\b|\bAllowOrigins\s*:\s*\[\]string\{\s*"\*"\s*\}|\ballowedOrigins\s*\(\s*"\*"\s*\)|\bAllowAnyOrigin\s*\(\s*\)|Access-Control-Allow-Origin["']?\s*[:,]\s*["']\*["']|\ballow_origins\s*=\s*\[\s*["']\*["']\s*\]|\ballowedOriginPatterns\s*\(\s*"\*"\s*\)|\bAllowedOrigins\s*:\s*\[\]string\{\s*"\*"\s*\}|Access-Control-Allow-Origin["']?\s*[:,]\s*[\w.]{0,40}(?:headers?\.origin\b|[Hh]eaders?(?:\.[Gg]et\(|\[)\s*["'][Oo]rigin["'])/;

/** How many lines around the credentials setting belong to the same CORS configuration. */
const REACH = 8;

function anyOriginNear(line: AddedLine): boolean {
  if (ANY_ORIGIN.test(line.text)) return true;
  for (let offset = -REACH; offset <= REACH; offset++) {
    const other = offset === 0 ? undefined : line.lineAt(offset);
    if (other && other.kind !== '-' && ANY_ORIGIN.test(other.text)) return true;
  }
  return false;
}

export const noCorsAnyOriginWithCredentials: LineRule = {
  kind: 'line',
  id: 'no-cors-any-origin-credentials',
  severity: 'warning',
  summary:
    'CORS allows any origin (or reflects it) together with credentials: any website can make requests as the signed-in user.',
  help: 'List the origins that may call the API (origin: ["https://app.example.com"]), or leave credentials off for a public API.',
  message:
    'CORS allows any origin together with credentials: any website the user visits can call this API as the user; list the allowed origins instead.',
  files: notTestCode((path) => isJavaScript(path) || isPython(path) || isGo(path) || isJvm(path)),
  // The settings themselves, not the word: "credentials" is on every fetch() call.
  keywords: [
    'credentials: true',
    'credentials:true',
    'supports_credentials',
    'allow_credentials',
    'CORS_ALLOW_CREDENTIALS',
    'AllowCredentials',
    'allowCredentials',
    'Allow-Credentials',
  ],
  reads: 'text',
  check(line) {
    const m = CREDENTIALS.exec(line.text);
    if (!m || !anyOriginNear(line)) return null;
    return spanOf(m);
  },
};
