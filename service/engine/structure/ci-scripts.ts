// The shell scripts CI configuration holds, as places in its parsed YAML: a GitHub Actions step's
// `run:`, and in GitLab CI a job's `script:`, `before_script:` and `after_script:` (a string or a
// list of them). The stage parses them with the bash grammar where they stand (stage.ts).
import type { YamlDocument, YamlFound, YamlNode } from './yaml-tree.ts';

const GITLAB_SCRIPT_KEYS = new Set(['script', 'before_script', 'after_script']);
const isGitLabCi = (path: string): boolean => /(^|\/)\.gitlab-ci\.ya?ml$|(^|\/)\.gitlab\/ci\/[^/]+\.ya?ml$/.test(path);

export function ciScripts(documents: readonly YamlDocument[], path: string): YamlFound[] {
  const gitlab = isGitLabCi(path);
  const found: YamlFound[] = [];
  const script = (document: YamlDocument, node: YamlNode | null) => {
    if (node?.kind !== 'scalar') return;
    let [start, end] = node.range;
    const first = document.text[start];
    if (first === '|' || first === '>') {
      // a block scalar: the script starts on the line after its header (| or >-)
      const header = document.text.indexOf('\n', start);
      if (header < 0 || header >= end) return;
      start = header + 1;
    } else if ((first === '"' || first === "'") && document.text[end - 1] === first) {
      start++;
      end--;
    }
    if (start < end) found.push({ document, start, end });
  };
  const visit = (document: YamlDocument, node: YamlNode | null) => {
    if (node?.kind === 'seq') for (const item of node.items) visit(document, item);
    if (node?.kind !== 'map') return;
    for (const { key, value } of node.entries) {
      if (key === 'run') script(document, value);
      else if (gitlab && GITLAB_SCRIPT_KEYS.has(key) && value?.kind === 'seq')
        for (const item of value.items) script(document, item);
      else if (gitlab && GITLAB_SCRIPT_KEYS.has(key)) script(document, value);
      else visit(document, value);
    }
  };
  for (const document of documents) visit(document, document.root);
  return found;
}
