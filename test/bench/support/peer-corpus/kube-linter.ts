// stackrox/kube-linter: tests/checks/<check>.yml hold Kubernetes objects for one check, and
// e2etests/bats-tests.sh says how many reports the check must give on that file. Objects named
// `dont-fire` must get none; each other object must be reported. A YAML document is a case,
// found by a finding anywhere in it. A file whose count disagrees with its objects is left out.
import { readFileSync } from 'node:fs';
import type { MaterialFile, OurRule, PeerCase, PeerMaterial, PeerProject } from './material.ts';
import { diffPathOf, firstLineMatching, hasPaths, readLines } from './material.ts';

const MAPPED: Record<string, OurRule> = {
  'privileged-container': 'no-privileged-container',
  'privilege-escalation-container': 'no-privileged-container',
  'host-network': 'no-privileged-container',
  'host-pid': 'no-privileged-container',
  'host-ipc': 'no-privileged-container',
};

const BATS = 'e2etests/bats-tests.sh';

/** The count a bats test expects for a check (`[[ "${count}" == "2" ]]` in its block). */
function expectedCount(bats: string, check: string): number | undefined {
  const start = bats.indexOf(`@test "${check}"`);
  if (start < 0) return undefined;
  const end = bats.indexOf('@test "', start + 1);
  const block = bats.slice(start, end < 0 ? undefined : end);
  const m = /\$\{count\}"\s*==\s*"(\d+)"/.exec(block);
  return m ? Number(m[1]) : undefined;
}

/** The documents of a multi-document YAML file: their line ranges and their metadata name. */
function documentsOf(lines: string[]): { from: number; to: number; name: string }[] {
  const docs: { from: number; to: number; name: string }[] = [];
  let from = 1;
  const close = (to: number): void => {
    if (to < from) return;
    const name = lines.slice(from - 1, to).find((l) => /^\s{2}name:/.test(l));
    docs.push({ from, to, name: name?.split(':')[1]?.trim() ?? '' });
  };
  lines.forEach((line, i) => {
    if (/^---\s*$/.test(line)) {
      close(i);
      from = i + 2;
    }
  });
  close(lines.length);
  return docs.filter((d) => lines.slice(d.from - 1, d.to).some((l) => l.trim() !== ''));
}

function read(dir: string): PeerMaterial {
  const bats = readFileSync(`${dir}/${BATS}`, 'utf8');
  const files: MaterialFile[] = [];
  const cases: PeerCase[] = [];
  for (const [check, rule] of Object.entries(MAPPED)) {
    const source = `tests/checks/${check}.yml`;
    if (!hasPaths(dir, source)) continue;
    const lines = readLines(`${dir}/${source}`);
    const docs = documentsOf(lines);
    const flagged = docs.filter((d) => d.name !== 'dont-fire');
    if (flagged.length !== expectedCount(bats, check)) {
      console.error(`kube-linter: ${source} left out (its objects do not match the count in ${BATS})`);
      continue;
    }
    const file = {
      source,
      sourceLineOffset: 0,
      diffPath: diffPathOf('kube-linter', files.length, `${check}.yaml`),
      lines,
    };
    files.push(file);
    for (const doc of docs) {
      const kind = doc.name === 'dont-fire' ? 'clean' : 'flag';
      const focus = firstLineMatching(
        file,
        /privileged|hostNetwork|hostPID|hostIPC|PrivilegeEscalation/,
        doc.from,
        doc.to,
      );
      cases.push({ rule, peerRule: check, kind, spans: [{ file, from: doc.from, to: doc.to }], focus });
    }
  }
  return { project: 'kube-linter', files, cases };
}

export const kubeLinter: PeerProject = {
  name: 'kube-linter',
  recognise: (dir) => hasPaths(dir, BATS, 'tests/checks'),
  read,
};
