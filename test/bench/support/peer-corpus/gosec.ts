// securego/gosec: testutils/gNNN_samples.go hold programs as Go raw strings, each sample with the
// number of issues its rule must report (`{[]string{`…`}, 1, gosec.NewConfig()}`). A sample is a
// case: "must flag" when the number is above 0, found by a finding anywhere in its files; "must not
// flag" at 0, unless gosec's authors wrote beside it that the 0 is a limit of gosec ("documented
// limitation", "should be 1 issue"): then it must be flagged, as semgrep's `todoruleid` says.
// Samples with a non-default configuration are left out (their number depends on it).
// Mapped: G201/G202 (SQL built from strings), G701 (SQL injection found by taint; its "must flag"
// samples where SQL text is joined with a value, not input passed whole as the query), G101
// (hard-coded credentials), G402 where the sample is about InsecureSkipVerify (G402 also covers TLS
// versions and cipher suites, not ours).
// Not mapped: G204/G702 (a program and its arguments, no shell), G401/G404 (MD5, math/rand anywhere).
import type { MaterialFile, OurRule, PeerCase, PeerMaterial, PeerProject } from './material.ts';
import { diffPathOf, firstLineMatching, hasPaths, splitLines, wholeFile } from './material.ts';
import { readFileSync } from 'node:fs';

interface Mapping {
  rule: OurRule;
  /** The line --misses shows: the first one matching. */
  show: RegExp;
  /** Only samples whose code matches (the part of a wide gosec rule that is our claim). */
  about?: RegExp;
  /** Only "must flag" samples whose code matches (G701 also reports input passed whole as the query). */
  flagsAbout?: RegExp;
}

/** SQL text joined with a value: `"… WHERE x = " + v`, `fmt.Sprintf("SELECT …", v)`, `q += v`. */
const SQL_BUILT =
  /(?:SELECT|INSERT|UPDATE|DELETE|WHERE)\b[^"`\n]*["`]\s*\+|Sprintf\(\s*["`]\s*(?:SELECT|INSERT|UPDATE|DELETE)|\+=/i;

/** A database call with an argument (not `r.URL.Query()`). */
const SQL_CALL = /\.(?:Query|QueryRow|Exec|Prepare)\w*\((?!\))/;

const MAPPED: Record<string, Mapping> = {
  G101: { rule: 'secret', show: /passw|secret|token|key|cred|auth/i },
  G201: { rule: 'no-sql-string-building', show: SQL_CALL },
  G202: { rule: 'no-sql-string-building', show: SQL_CALL },
  G701: { rule: 'no-sql-string-building', show: SQL_CALL, flagsAbout: SQL_BUILT },
  G402: { rule: 'no-tls-verify-off', about: /InsecureSkipVerify/, show: /InsecureSkipVerify/ },
};

interface Sample {
  /** Each Go file of the sample, with the line of the samples file where its text starts. */
  sources: { text: string; line: number }[];
  issues: number;
  /** Its 0 is a limit gosec's authors wrote down beside it ("documented limitation", "should be 1 issue"). */
  knownMiss: boolean;
}

/** How gosec's authors mark a sample whose count is what gosec finds, not what it should. */
const LIMITATION =
  /limitation|not (?:yet )?(?:fully )?(?:supported|tracked)|does(?:n't| not) track|should be \d+ issue/i;

/** `{[]string{` then raw strings, then `}, N, config}`: backquoted Go strings hold no backquote. */
const SAMPLE = /\{\s*\[\]string\s*\{((?:\s*`[^`]*`\s*,?)+)\s*\}\s*,\s*(\d+)\s*,\s*(gosec\.NewConfig\(\)|[^\n]*)/g;
const RAW_STRING = /`([^`]*)`/g;

function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  let previousEnd = 0;
  for (const m of text.matchAll(SAMPLE)) {
    const end = m.index + m[0].length;
    // The comments before the sample (since the last one) and after it on its closing line.
    const lineEnd = text.indexOf('\n', end);
    const notes = text.slice(previousEnd, m.index) + text.slice(end, lineEnd < 0 ? undefined : lineEnd);
    previousEnd = end;
    if (m[3] !== 'gosec.NewConfig()') continue;
    const listStart = m.index + m[0].indexOf(m[1]!);
    const sources = [...m[1]!.matchAll(RAW_STRING)].map((s) => ({
      text: s[1]!,
      line: lineAt(text, listStart + s.index),
    }));
    const issues = Number(m[2]);
    samples.push({ sources, issues, knownMiss: issues === 0 && LIMITATION.test(notes) });
  }
  return samples;
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

function read(dir: string): PeerMaterial {
  const files: MaterialFile[] = [];
  const cases: PeerCase[] = [];
  for (const [id, mapping] of Object.entries(MAPPED)) {
    const source = `testutils/${id.toLowerCase()}_samples.go`;
    if (!hasPaths(dir, source)) continue;
    samplesOf(readFileSync(`${dir}/${source}`, 'utf8')).forEach((sample, n) => {
      const about = (pattern: RegExp | undefined): boolean =>
        !pattern || sample.sources.some((s) => pattern.test(s.text));
      const mustFlag = sample.issues > 0 || sample.knownMiss;
      if (!about(mapping.about) || (mustFlag && !about(mapping.flagsAbout))) return;
      const spans = sample.sources.map(({ text, line }) => {
        // The raw string starts right after the backquote: its first line is the rest of that line.
        const file = {
          source: `${source} (sample ${n + 1})`,
          sourceLineOffset: line - 1,
          diffPath: diffPathOf('gosec', files.length, 'main.go'),
          lines: splitLines(text),
        };
        files.push(file);
        return wholeFile(file);
      });
      const focus = firstLineMatching(spans[0]!.file, mapping.show);
      cases.push({ rule: mapping.rule, peerRule: id, kind: mustFlag ? 'flag' : 'clean', spans, focus });
    });
  }
  return { project: 'gosec', files, cases };
}

export const gosec: PeerProject = {
  name: 'gosec',
  recognise: (dir) => hasPaths(dir, 'testutils/sample_types.go', 'analyzer.go'),
  read,
};
