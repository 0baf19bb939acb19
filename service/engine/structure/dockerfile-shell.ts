// The shell a Dockerfile runs, for the bash grammar: the commands of its shell-form RUN, CMD and
// ENTRYPOINT instructions (a heredoc's body too) where they stand, everything else blanked, so
// that rows and columns stay the file's. Instructions are told apart by dockerfile-ast (the parser
// behind VS Code's Docker extension): line continuations, flags such as --mount=…, the exec form
// and heredocs are its to read.
import { DockerfileParser } from 'dockerfile-ast';

/** Instructions whose shell form is a command line run by /bin/sh -c. */
const SHELL_FORM = new Set(['RUN', 'CMD', 'ENTRYPOINT']);
/** Every instruction keyword: a hunk whose first "instruction" is none of these starts inside one (a continuation). */
const KEYWORDS = new Set([
  ...SHELL_FORM,
  'FROM',
  'LABEL',
  'MAINTAINER',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
]);

interface Position {
  line: number;
  character: number;
}

/** `text` with only its shell commands left; every other character a space (line breaks kept). */
export function shellOfDockerfile(text: string): string {
  const rows = text.split('\n');
  const kept = rows.map((row) => new Uint8Array(row.length));
  const keep = (from: Position, to: Position) => {
    for (let line = from.line; line <= to.line && line < rows.length; line++) {
      const start = line === from.line ? from.character : 0;
      const end = line === to.line ? to.character : rows[line]!.length;
      kept[line]!.fill(1, start, end);
    }
  };
  const instructions = DockerfileParser.parse(text).getInstructions();
  instructions.forEach((instruction, index) => {
    const keyword = instruction.getKeyword();
    // Before the hunk's first instruction: the rest of one above it, most likely a RUN's.
    const continuation = index === 0 && !KEYWORDS.has(keyword);
    if (!continuation && !SHELL_FORM.has(keyword)) return;
    const args = instruction.getArguments();
    const first = args[0];
    if (!first) return;
    if (continuation) {
      keep(instruction.getRange().start, instruction.getRange().end);
      return;
    }
    const value = first.getValue();
    if (value.startsWith('[')) return; // the exec form: no shell
    if (value.startsWith('<<')) {
      // RUN <<EOF … EOF: the body is the script; the markers are not commands
      const last = args.at(-1)!;
      const from = { line: first.getRange().end.line + 1, character: 0 };
      if (from.line < last.getRange().start.line)
        keep(from, { line: last.getRange().start.line - 1, character: Infinity });
      return;
    }
    keep(first.getRange().start, instruction.getRange().end);
  });
  return rows
    .map((row, line) => {
      const mask = kept[line]!;
      let out = '';
      for (let i = 0; i < row.length; i++) out += mask[i] ? row[i] : ' ';
      return out.trimEnd();
    })
    .join('\n');
}
