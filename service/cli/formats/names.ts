// The names of the output formats, apart from their code, for `--help`.
export const FORMATS = ['text', 'json', 'sarif', 'github', 'rdjsonl', 'gitlab', 'checkstyle', 'junit'] as const;
export type FormatName = (typeof FORMATS)[number];
