// `diff-review review` on a real terminal (a pseudo-terminal made by util-linux `script`): colours
// when stdout is a terminal, none for TERM=dumb or NO_COLOR, an empty FORCE_COLOR counts as unset
// (force-color.org); and `--diff -` waiting on a terminal says what it waits for.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, buildCli, makeRepo, type TestRepo } from './review-cli.ts';

const hasScript = spawnSync('script', ['--version']).status === 0;
let repo: TestRepo;
beforeAll(() => {
  buildCli();
  repo = makeRepo();
  repo.write('src/app.js', 'debugger;\n');
  repo.commit('work');
}, 60_000);
afterAll(() => repo?.cleanup());

const RED_OR_YELLOW = /\x1b\[3[13]m/;

/** The CLI with stdin, stdout and stderr on a pseudo-terminal; what the terminal showed. */
function onTerminal(args: string, env: Record<string, string | undefined>): { code: number | null; shown: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  for (const name of ['NO_COLOR', 'FORCE_COLOR'] as const) if (!(name in env)) delete childEnv[name];
  const run = spawnSync('script', ['-qec', `'${process.execPath}' '${BUILT_CLI}' ${args}`, '/dev/null'], {
    cwd: repo.dir,
    env: childEnv,
    encoding: 'utf8',
    // stdin closed: `script` passes the end of input on to the terminal (Ctrl-D)
    input: '',
    timeout: 30_000,
  });
  return { code: run.status, shown: run.stdout };
}

// In CI a missing `script` is a failure (util-linux is in every Debian image), never a silent skip.
if (!hasScript && process.env.CI) it('has util-linux script', () => expect(hasScript).toBe(true));

describe.skipIf(!hasScript)('on a real terminal', () => {
  it('colours the text format; not for TERM=dumb, NO_COLOR or FORCE_COLOR=0', () => {
    const coloured = onTerminal('review', {});
    expect(coloured.code).toBe(0);
    expect(coloured.shown).toContain('no-debugger');
    expect(coloured.shown).toMatch(RED_OR_YELLOW);
    for (const env of [{ TERM: 'dumb' }, { NO_COLOR: '1' }, { FORCE_COLOR: '0' }]) {
      const plain = onTerminal('review', env);
      expect({ env, plain: plain.shown.includes('no-debugger') && !plain.shown.includes('\x1b[') }).toEqual({
        env,
        plain: true,
      });
    }
  });

  it('an empty FORCE_COLOR counts as unset: colour on a terminal, none off it', () => {
    expect(onTerminal('review', { FORCE_COLOR: '' }).shown).toMatch(RED_OR_YELLOW);
    const piped = spawnSync(process.execPath, [BUILT_CLI, 'review'], {
      cwd: repo.dir,
      env: { ...process.env, FORCE_COLOR: '', NO_COLOR: undefined },
      encoding: 'utf8',
    });
    expect(piped.stdout).toContain('no-debugger');
    expect(piped.stdout).not.toContain('\x1b[');
  });

  it('--diff - on a terminal says it is reading a diff from stdin', () => {
    const run = onTerminal('review --diff -', {});
    expect(run.shown).toContain('diff-review: reading a unified diff from stdin (end it with Ctrl-D, or pipe one in)');
  });
});
