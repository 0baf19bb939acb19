// Credentials as the text of an XML element named for them: Maven's settings.xml
// (<server><password>…</password>), .NET and Java configuration (<apiKey>…</apiKey>,
// <db.password>…</db.password>). gitleaks reads `name = value` and `name: value`, not elements.
import { lastPathMemo } from '../files.ts';
import type { CredentialFormat } from './format.ts';
import { spellings } from './format.ts';
import { looksLikePassword, looksLikeRandomKey, nameStart, PUBLIC_VALUES } from './named-values.ts';

/** XML files: configuration (.xml, .config), MSBuild (.csproj, .props, .targets), property lists. */
const isXmlFile = lastPathMemo((path: string): boolean =>
  /\.(xml|config|csproj|vbproj|props|targets|plist)$/i.test(path),
);

const ELEMENT_NAME_CHARS = /[\w.:-]/;

/** Where the element's name starts: the `<` before the keyword, with only a name's characters (and a namespace's `:`) between. */
function elementNameStart(input: string, at: number): number {
  const start = nameStart(input, at, ELEMENT_NAME_CHARS);
  return start > 0 && input[start - 1] === '<' ? start : -1;
}

/** An element's name that ends in the keyword, its text before its closing tag. */
function element(
  id: string,
  kind: string,
  words: readonly string[],
  accepts: (value: string) => boolean,
): CredentialFormat {
  const keywords = words.map((word) => `${word}>`);
  return {
    id,
    kind,
    keywords,
    pattern: new RegExp(`(?:${words.join('|')})>(?<secret>[^<\\s]{6,512})</`, 'dy'),
    secretGroup: 0,
    entropy: 0,
    wordStart: false,
    generic: true,
    files: isXmlFile,
    allowlist: PUBLIC_VALUES,
    accepts: (secret, match) => {
      const start = elementNameStart(match.input, match.index);
      return (
        start >= 0 &&
        !/public|publishable/i.test(match.input.slice(start, match.index)) &&
        // {…}: encrypted by Maven (mvn --encrypt-password) or Jenkins, not the credential itself
        !/^\{.*\}$/.test(secret) &&
        accepts(secret)
      );
    },
  };
}

export const XML_ELEMENT_FORMATS: CredentialFormat[] = [
  element('xml-element-password', 'password', spellings(['password', 'passwd']), looksLikePassword),
  element(
    'xml-element-secret',
    'secret, token or API key',
    [
      ...spellings(['secret', 'token', 'api_key', 'apikey', 'access_key', 'secret_key']),
      ...['apiKey', 'ApiKey', 'accessKey', 'AccessKey', 'secretKey', 'SecretKey', 'authToken', 'AuthToken'],
    ],
    looksLikeRandomKey,
  ),
];
