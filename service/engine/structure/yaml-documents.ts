// The new side of a YAML hunk, parsed by the yaml package (slow to load: this module is imported
// with the first YAML hunk a rule reads; test/bench/README.md). A hunk may start inside a block or a step whose key is
// above it: each run of rows that does not go left of its first row is a document of its own,
// parsed tolerantly (errors are kept by the parser, and what it could read is used). A piece may
// hold several documents (`---`): each is one YamlDocument over the piece's text.
import { isMap, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { YamlDocument, YamlNode } from './yaml-tree.ts';

const indentOf = (row: string): number => row.length - row.trimStart().length;

/** The documents of a hunk's rows (its new side, one string per row). */
export function yamlDocuments(rows: readonly string[]): YamlDocument[] {
  const documents: YamlDocument[] = [];
  let first = -1;
  let base = 0;
  const close = (end: number) => {
    if (first < 0) return;
    const text = rows
      .slice(first, end)
      .map((row) => row.slice(base))
      .join('\n');
    // several documents (`---`) in one file, as Kubernetes manifests are written
    const parsed = parseAllDocuments(text, { strict: false, uniqueKeys: false, prettyErrors: false });
    for (const document of Array.isArray(parsed) ? parsed : [])
      documents.push({ text, root: plain(document.contents), firstRow: first, dedent: base });
  };
  rows.forEach((row, i) => {
    if (row.trim() === '') return;
    const indent = indentOf(row);
    if (first < 0 || indent < base) {
      close(i);
      first = i;
      base = indent;
    }
  });
  close(rows.length);
  return documents;
}

function plain(node: unknown): YamlNode | null {
  if (isMap(node))
    return {
      kind: 'map',
      range: rangeOf(node.range),
      entries: node.items.map((pair) => ({
        key: isScalar(pair.key) ? String(pair.key.value) : '',
        keyRange: rangeOf(isScalar(pair.key) ? pair.key.range : undefined),
        value: plain(pair.value),
      })),
    };
  if (isSeq(node))
    return { kind: 'seq', range: rangeOf(node.range), items: node.items.flatMap((item) => plain(item) ?? []) };
  if (isScalar(node)) return { kind: 'scalar', range: rangeOf(node.range), value: String(node.value) };
  return null;
}

const rangeOf = (range: readonly number[] | null | undefined): [number, number] => [range?.[0] ?? 0, range?.[1] ?? 0];
