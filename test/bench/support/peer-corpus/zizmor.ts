// zizmorcore/zizmor: crates/zizmor/tests/integration/audit/template_injection.rs runs zizmor on
// workflows of test-data/ and pins its output in inline snapshots. A template-injection finding at
// zizmor's `error` level (expressions it rates attacker-controllable with high severity) is a "must
// flag" line; a workflow whose snapshot is "No findings to report" is one "must not flag" case.
// Lower levels (warning/help/info: matrix values, env, step outputs) are zizmor's "maybe": not labels.
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { MaterialFile, PeerCase, PeerMaterial, PeerProject, Span } from './material.ts';
import { diffPathOf, filesUnder, hasPaths, readLines, wholeFile, workflowName } from './material.ts';

const TESTS = 'crates/zizmor/tests/integration';
const DATA = `${TESTS}/test-data`;

/** What one run of zizmor in a test says about a test-data input. */
interface Run {
  input: string;
  clean: boolean;
  /** Lines with an error-level template-injection finding, per file under the input ('' for the input itself). */
  flagged: { file: string; line: number }[];
}

const INPUT = /input_under_test\(\s*"([^"]+)"\s*,?\s*\)/;
const HEADER = /^\s*(error|warning|help|info|note)\[([\w-]+)\]/;
const LOCATION = /-->\s*@@INPUT@@(\S*?):(\d+):\d+/;

/** The runs of a test file: each `zizmor()` call with its input and the snapshot after it. */
function runsOf(text: string): Run[] {
  return text
    .split(/zizmor\(\)/)
    .slice(1)
    .flatMap((segment): Run[] => {
      const input = INPUT.exec(segment)?.[1];
      if (!input) return [];
      const flagged: Run['flagged'] = [];
      let level = '';
      let audit = '';
      for (const line of segment.split('\n')) {
        const header = HEADER.exec(line);
        if (header) {
          level = header[1]!;
          audit = header[2]!;
        }
        const at = LOCATION.exec(line);
        if (at && level === 'error' && audit === 'template-injection')
          flagged.push({ file: at[1]!.replace(/^\//, ''), line: Number(at[2]) });
      }
      return [{ input, clean: segment.includes('No findings to report'), flagged }];
    });
}

function read(dir: string): PeerMaterial {
  const files: MaterialFile[] = [];
  const cases: PeerCase[] = [];
  const byPath = new Map<string, MaterialFile>();
  const fileOf = (path: string): MaterialFile => {
    let file = byPath.get(path);
    if (!file) {
      const name = workflowName(path.slice(path.lastIndexOf('/') + 1));
      file = {
        source: path,
        sourceLineOffset: 0,
        diffPath: diffPathOf('zizmor', files.length, name),
        lines: readLines(`${dir}/${path}`),
      };
      files.push(file);
      byPath.set(path, file);
    }
    return file;
  };
  const runs = runsOf(readFileSync(`${dir}/${TESTS}/audit/template_injection.rs`, 'utf8'));
  const flaggedPaths = new Set<string>();
  for (const run of runs) {
    for (const { file, line } of run.flagged) {
      const path = file === '' ? `${DATA}/${run.input}` : `${DATA}/${run.input}/${file}`;
      if (!existsSync(`${dir}/${path}`)) continue;
      flaggedPaths.add(path);
      const span: Span = { file: fileOf(path), from: line, to: line };
      cases.push({ rule: 'no-actions-script-injection', peerRule: 'template-injection', kind: 'flag', spans: [span] });
    }
  }
  for (const run of runs.filter((r) => r.clean)) {
    for (const path of workflowsAt(dir, `${DATA}/${run.input}`)) {
      if (flaggedPaths.has(path)) continue;
      flaggedPaths.add(path); // one case per workflow, however many runs say it is clean
      cases.push({
        rule: 'no-actions-script-injection',
        peerRule: 'template-injection',
        kind: 'clean',
        spans: [wholeFile(fileOf(path))],
      });
    }
  }
  return { project: 'zizmor', files, cases };
}

/** The workflow at a path, or every workflow under a folder. */
function workflowsAt(dir: string, path: string): string[] {
  if (!existsSync(`${dir}/${path}`)) return [];
  if (!statSync(`${dir}/${path}`).isDirectory()) return [path];
  return filesUnder(`${dir}/${path}`)
    .filter((p) => /\.ya?ml$/.test(p))
    .map((p) => `${path}/${p}`);
}

export const zizmor: PeerProject = {
  name: 'zizmor',
  recognise: (dir) => hasPaths(dir, `${TESTS}/audit/template_injection.rs`, DATA),
  read,
};
