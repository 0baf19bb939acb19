// ajinabraham/njsscan: tests/assets/node_source/true_positives carry semgrep-style annotations
// (`// ruleid:node_sqli_injection`); every file of true_negatives must get no finding of the rules
// it is about (njsscan's tests scan them and expect nothing), so each is one "must not flag" case.
// Not mapped: njsscan's hard-coded secrets (short values such as '1212' under secret names: our
// `secret` claims a credential's shape or a real value), Math.random anywhere, MD5/SHA-1 anywhere,
// CORS "*" without credentials.
import { annotationsOf, statementSpan } from './annotations.ts';
import type { MaterialFile, OurRule, PeerCase, PeerMaterial, PeerProject } from './material.ts';
import { diffPathOf, filesUnder, hasPaths, readLines, wholeFile } from './material.ts';

const ROOT = 'tests/assets/node_source';

/** njsscan's rule ids → ours. */
const MAPPED: Record<string, OurRule> = {
  node_sqli_injection: 'no-sql-string-building',
  node_knex_sqli_injection: 'no-sql-string-building',
  eval_nodejs: 'no-eval',
  vm_code_injection: 'no-eval',
  vm_runincontext_injection: 'no-eval',
  vm_runinnewcontext_injection: 'no-eval',
  vm_compilefunction_injection: 'no-eval',
  generic_os_command_exec: 'no-shell-injection',
  shelljs_os_command_exec: 'no-shell-injection',
  node_deserialize: 'no-pickle-loads',
  node_tls_reject: 'no-tls-verify-off',
  node_curl_ssl_verify_disable: 'no-tls-verify-off',
  sequelize_tls_cert_validation: 'no-tls-verify-off',
  node_jwt_none_algorithm: 'no-jwt-verify-off',
  dom_xss: 'no-inner-html',
};

/** true_negatives files → the rule they show safe forms of (the others are about unmapped rules). */
const NEGATIVES: Record<string, OurRule> = {
  'safe_sql.js': 'no-sql-string-building',
  'safe_sql_knex.js': 'no-sql-string-building',
  'safe_vm.js': 'no-eval',
  'hardcoded_evals.js': 'no-eval',
  'safe_shelljs.js': 'no-shell-injection',
  'hardcoded_os_command.js': 'no-shell-injection',
  'safe_serialize.js': 'no-pickle-loads',
  'safe_tls_node.js': 'no-tls-verify-off',
  'safe_sequelize_tls_validation.js': 'no-tls-verify-off',
  'safe_jwt_algorithm.js': 'no-jwt-verify-off',
  'safe_xss_dom.js': 'no-inner-html',
};

function read(dir: string, window: number): PeerMaterial {
  const files: MaterialFile[] = [];
  const cases: PeerCase[] = [];
  const add = (path: string): MaterialFile => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const file = {
      source: `${ROOT}/${path}`,
      sourceLineOffset: 0,
      diffPath: diffPathOf('njsscan', files.length, name),
      lines: readLines(`${dir}/${ROOT}/${path}`),
    };
    files.push(file);
    return file;
  };
  for (const path of filesUnder(`${dir}/${ROOT}`).filter((p) => p.startsWith('true_positives/'))) {
    const lines = readLines(`${dir}/${ROOT}/${path}`);
    const { annotations, commentLines } = annotationsOf(lines);
    const mapped = annotations.flatMap((a) => a.ids.filter((id) => MAPPED[id]).map((id) => ({ ...a, id })));
    if (mapped.length === 0) continue;
    const file = add(path);
    for (const a of mapped) {
      const span = statementSpan(file, a.target, window, commentLines);
      cases.push({ rule: MAPPED[a.id]!, peerRule: a.id, kind: a.kind, spans: [span] });
    }
  }
  for (const [name, rule] of Object.entries(NEGATIVES)) {
    if (!hasPaths(`${dir}/${ROOT}`, `true_negatives/${name}`)) continue;
    const file = add(`true_negatives/${name}`);
    cases.push({ rule, peerRule: `true_negatives/${name}`, kind: 'clean', spans: [wholeFile(file)] });
  }
  return { project: 'njsscan', files, cases };
}

export const njsscan: PeerProject = {
  name: 'njsscan',
  recognise: (dir) => hasPaths(dir, 'njsscan/rules', `${ROOT}/true_positives`),
  read,
};
