// A hunk of YAML as the yaml package parsed it (yaml-documents.ts), in plain terms the rules walk
// without importing the parser: maps, sequences and scalars with their places in the text.

/** Offsets into the document's text: [start, end). */
export type YamlRange = readonly [number, number];

export type YamlNode =
  | { kind: 'map'; range: YamlRange; entries: readonly YamlEntry[] }
  | { kind: 'seq'; range: YamlRange; items: readonly YamlNode[] }
  | { kind: 'scalar'; range: YamlRange; value: string };

export interface YamlEntry {
  /** The key as text ('' for a key that is not a scalar). */
  key: string;
  keyRange: YamlRange;
  value: YamlNode | null;
}

/**
 * One piece of a hunk parsed on its own: a hunk is a fragment, and each run of rows that does
 * not go left of its first row's indentation is parsed as a document.
 */
export interface YamlDocument {
  /** The rows, with their common indentation taken off. */
  text: string;
  root: YamlNode | null;
  /** The hunk row of the text's first line. */
  firstRow: number;
  /** The columns taken off every row. */
  dedent: number;
}

/** What a rule reports: a place in one document's text. */
export interface YamlFound {
  document: YamlDocument;
  start: number;
  end: number;
  /** Replaces the rule's message. */
  message?: string;
  /** What was found is a secret: the fingerprint must not reveal it. */
  secret?: boolean;
}

/** The entry of a map under `key`, or undefined. */
export const valueUnder = (map: YamlNode | null, key: string): YamlNode | null | undefined =>
  map?.kind === 'map' ? map.entries.find((entry) => entry.key === key)?.value : undefined;

/** A map entry whose value is a scalar, with the document it is in. */
export interface ScalarEntry {
  document: YamlDocument;
  key: string;
  keyRange: YamlRange;
  value: YamlNode & { kind: 'scalar' };
}

/** Every entry of every map of the documents (block or flow, at any depth) whose value is a scalar. */
export function scalarEntries(documents: readonly YamlDocument[]): ScalarEntry[] {
  const entries: ScalarEntry[] = [];
  const visit = (document: YamlDocument, node: YamlNode | null) => {
    if (node?.kind === 'seq') for (const item of node.items) visit(document, item);
    if (node?.kind !== 'map') return;
    for (const { key, keyRange, value } of node.entries) {
      if (value?.kind === 'scalar') entries.push({ document, key, keyRange, value });
      else visit(document, value);
    }
  };
  for (const document of documents) visit(document, document.root);
  return entries;
}
