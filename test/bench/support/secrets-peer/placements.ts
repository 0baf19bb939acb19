// Where a peer credential is put: a value in the six kinds of file people commit credentials in,
// each as its users write it there; a text as its project wrote it, as it is, in a plain text file.
import type { PeerItem } from './material.ts';

export type FileKind =
  | '.env'
  | 'source'
  | 'YAML'
  | 'properties'
  | 'shell'
  | 'Markdown'
  | 'source, neutral name'
  | 'as written';
/** The kinds a value is placed in; under a neutral name, only what a value's own shape says can find it. */
export const VALUE_KINDS: readonly FileKind[] = [
  '.env',
  'source',
  'YAML',
  'properties',
  'shell',
  'Markdown',
  'source, neutral name',
];

export interface Placement {
  item: PeerItem;
  kind: FileKind;
  /** Path under the placement's own folder. */
  path: string;
  lines: string[];
  /** 1-based line that holds the value; null: anywhere in the file (a text as written). */
  line: number | null;
}

/** The name a user gives the value: the provider's name and TOKEN (GITHUB_TOKEN, github_token, github.token). */
function namesOf(service: string): { upper: string; lower: string; dotted: string } {
  const words = service
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const lower = [...words, 'token'].join('_').toLowerCase();
  return { upper: lower.toUpperCase(), lower, dotted: lower.replace(/_/g, '.') };
}

/** One file per placement: every value in the six kinds; a text as written in one plain file. */
export function placementsOf(item: PeerItem): Placement[] {
  if (item.shape === 'as-written')
    return [{ item, kind: 'as written', path: 'notes/input.txt', lines: item.text.split(/\r?\n/), line: null }];
  const { upper, lower, dotted } = namesOf(item.service);
  const v = item.text;
  const files: Record<Exclude<FileKind, 'as written'>, [string, string[], number]> = {
    '.env': ['.env', ['# local settings', `${upper}=${v}`], 2],
    source: ['app/settings.py', ['import os', '', `${upper} = "${v}"`], 3],
    YAML: ['config/app.yml', ['service:', `  ${lower}: ${v}`], 2],
    properties: ['src/main/resources/application.properties', [`${dotted}=${v}`], 1],
    shell: ['scripts/deploy.sh', ['#!/bin/sh', `export ${upper}="${v}"`], 2],
    Markdown: ['docs/setup.md', ['## Setup', '', '```sh', `export ${upper}=${v}`, '```'], 4],
    'source, neutral name': ['app/values.py', [`value = "${v}"`], 1],
  };
  return VALUE_KINDS.map((kind) => {
    const [path, lines, line] = files[kind as Exclude<FileKind, 'as written'>];
    return { item, kind, path, lines, line };
  });
}
