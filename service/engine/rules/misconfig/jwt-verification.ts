// JWT verification turned off: a token whose signature is not checked, or that may use the
// `none` algorithm, can be written by anyone.
import { isCSharp, isGo, isJavaScript, isJvm, isPython, isRuby, notTestCode } from '../files.ts';
import type { LineRule } from '../rule.ts';
import { isCodeAt, spanOf } from '../rule.ts';

const VERIFY_OFF =
  /\balgorithms?\s*[:=][^\n]{0,100}?["']none["']|["']verify_signature["']\s*:\s*False\b|\bverify\s*=\s*False\b(?=[^)]{0,200}\))|\bjwt\.SigningMethodNone\b|\bUnsafeAllowNoneSignatureType\b|\bparseUnsecuredClaims\b|\bAlgorithm\.none\s*\(\s*\)|\bParseUnverified\s*\(|\bRequireSignedTokens\s*=\s*false\b|\bJWK\.None\b/i;

/** Ruby's jwt gem: JWT.decode(token, key, false) skips verification; JWT.encode(payload, nil, 'none') signs with nothing. */
const RUBY_OFF =
  /\bJWT\.decode\b\s*\(?\s*[^,\n]{1,200},\s*[^,\n]{1,200},\s*false\b|\bJWT\.encode\b[^\n]{0,200}?,\s*["']none["']/;
/** jwt-simple: decode(token, key, noVerify) with a truthy third argument. */
const JWT_SIMPLE_OFF =
  /\bjwt\.decode\s*\(\s*[^,()\n]{1,200},\s*[^,()\n]{1,200},\s*(?:true|["'][^"'\n]{1,20}["'])\s*[,)]/;

/** A call or object of a JWT library on the line: jwt.verify, jwtVerify, jose, jws, JWT.require, Jwts. */
const JWT_CALL = /\b(?:jwt|jose|jws|jsonwebtoken)\w*\b|\bJWT\w*\.|\bJwts\b/i;

export const noJwtVerifyOff: LineRule = {
  kind: 'line',
  id: 'no-jwt-verify-off',
  severity: 'warning',
  summary: 'JWT signature verification turned off, or the `none` algorithm allowed.',
  help: 'Verify every token with the expected key and an explicit list of real algorithms (algorithms: ["RS256"]); decode without verification only to read a token you will verify next.',
  message:
    'This accepts JSON Web Tokens without checking their signature (or with alg "none"): anyone can write a token that passes; verify with the key and a fixed list of algorithms.',
  files: notTestCode(
    (path) => isJavaScript(path) || isPython(path) || isGo(path) || isJvm(path) || isRuby(path) || isCSharp(path),
  ),
  keywords: [
    'algorithm',
    'Algorithm',
    'verify_signature',
    'jwt.decode',
    'SigningMethodNone',
    'UnsafeAllowNoneSignatureType',
    'parseUnsecuredClaims',
    'ParseUnverified',
    'RequireSignedTokens',
    'JWT.decode',
    'JWT.encode',
    // jose 1–2's key that verifies nothing
    'JWK.None',
  ],
  syntax: {
    // what lines cannot show: a token built over several lines and never signed (jjwt then writes alg "none")
    linesToo: true,
    keywords: ['Jwts'],
    languages: {
      java: {
        query: `((method_invocation name: (identifier) @name) @finding
  (#eq? @name "compact") (#match? @finding "^Jwts[.]builder[(]") (#not-match? @finding "[.]signWith[(]"))`,
        queryMessage:
          'This JSON Web Token is built without a signature (jjwt writes alg "none"): anyone can write one that passes; sign it with signWith(key).',
      },
    },
  },
  reads: 'text',
  check(line) {
    const own = isRuby(line.path)
      ? RUBY_OFF.exec(line.text)
      : isJavaScript(line.path)
        ? JWT_SIMPLE_OFF.exec(line.text)
        : null;
    if (own && isCodeAt(line, own.index)) return spanOf(own);
    const m = VERIFY_OFF.exec(line.text);
    if (!m || !isCodeAt(line, m.index)) return null;
    // verify=False is PyJWT 1's switch on jwt.decode (requests' verify=False is TLS: no-tls-verify-off).
    if (/^verify\s*=/i.test(m[0]) && !/\bjwt\.decode\s*\(/.test(line.text)) return null;
    // `algorithm: "none"` is also a compression or cipher setting: only in a JWT library's call.
    if (/^algorithms?\s*[:=]/i.test(m[0]) && !JWT_CALL.test(line.text)) return null;
    return spanOf(m);
  },
};
