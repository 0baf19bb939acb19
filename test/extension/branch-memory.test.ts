// What the extension remembers of each branch's review (review-memory.ts), where HEAD is
// (git-head.ts, against a real repository), and the words for findings left on another branch
// (hidden-findings.ts). Under Node: the workspace state is played by a Map.
import { afterAll, describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { headLabel, readHead } from '../../extension/src/git-head.ts';
import { hiddenFindingsText } from '../../extension/src/hidden-findings.ts';
import { ReviewMemory } from '../../extension/src/review-memory.ts';
import { git, makeRepo } from '../support/git-repo.ts';

class MapMemento implements Pick<vscode.Memento, 'get' | 'update'> {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
  }
}
const memoryOf = (memento: MapMemento) => new ReviewMemory(memento as unknown as vscode.Memento);

const state = (findings: number) => ({
  kind: 'done' as const,
  findings,
  bySeverity: { error: findings, warning: 0, info: 0 },
  hidden: 0,
});
const planned = (line: number) => ({
  line,
  startCharacter: 0,
  endCharacter: 1,
  severity: 'error' as const,
  code: 'secret',
  message: 'x',
  lineText: 'x',
});
const files = (n: number) => new Map([['/repo/a.js', Array.from({ length: n }, (_, i) => planned(i))]]);
const feature = { root: '/repo', branch: 'feature', headCommit: 'a'.repeat(40) };
const main = { root: '/repo', branch: 'main', headCommit: 'b'.repeat(40) };

describe('ReviewMemory', () => {
  it("keeps each branch's last review; the current one is what a reload shows first", async () => {
    const memory = memoryOf(new MapMemento());
    await memory.save(feature, files(2), state(2));
    await memory.save(main, files(1), state(1));
    expect(memory.load()?.branch).toBe('main');
    expect(memory.forPlace(feature)?.files[0]?.[1]).toHaveLength(2);
    expect(memory.forPlace({ ...feature, headCommit: 'c'.repeat(40) })?.branch).toBe('feature'); // by branch
    await memory.makeCurrent(feature);
    expect(memory.load()?.branch).toBe('feature');
    await memory.forget(main);
    expect(memory.forPlace(main)).toBeUndefined();
    expect(memory.load()?.branch).toBe('feature');
    await memory.makeCurrent(undefined);
    expect(memory.load()).toBeUndefined();
    expect(memory.forPlace(feature)).toBeDefined();
    // A detached HEAD: by its commit.
    const detached = { root: '/repo', branch: undefined, headCommit: 'd'.repeat(40) };
    await memory.save(detached, files(1), state(1));
    expect(memory.forPlace(detached)?.headCommit).toBe('d'.repeat(40));
    expect(memory.forPlace({ ...detached, headCommit: 'e'.repeat(40) })).toBeUndefined();
  });

  it('keeps the 20 branches saved last, and reads the one review of the first version', async () => {
    const memento = new MapMemento();
    const memory = memoryOf(memento);
    for (let i = 0; i < 25; i++) await memory.save({ ...feature, branch: `b${i}` }, files(1), state(1));
    expect(memory.forPlace({ ...feature, branch: 'b4' })).toBeUndefined();
    expect(memory.forPlace({ ...feature, branch: 'b5' })).toBeDefined();
    const old = new MapMemento();
    old.values.set('diffReview.lastReview', { version: 1, files: [...files(2)], state: state(2) });
    expect(memoryOf(old).load()?.files[0]?.[1]).toHaveLength(2);
  });
});

describe('the words for findings on another branch', () => {
  const done = { ...state(0), reviewedOn: 'feature/login', checkedOut: 'main' };
  it('say how many, from which review, and where they are not; never "nothing"', () => {
    expect(hiddenFindingsText({ ...done, notHere: 3 })).toBe(
      '3 findings from the review of feature/login; none in the files as they are on main. Check out feature/login to see them, or review main.',
    );
    expect(hiddenFindingsText({ ...done, findings: 1, notHere: 1 })).toBe(
      '1 finding more from the review of feature/login is not in the files as they are on main. Check out feature/login to see them, or review main.',
    );
    expect(hiddenFindingsText({ ...done, checkedOut: 'feature/login', notHere: 2 })).toBe(
      '2 findings from the review of feature/login; none in the files as they are now.',
    );
    expect(hiddenFindingsText({ ...done, notHere: 0 })).toBeUndefined();
    expect(hiddenFindingsText(state(2))).toBeUndefined();
  });
});

describe('readHead', () => {
  const repo = makeRepo();
  afterAll(() => repo.cleanup());

  it('names the branch and commit; a detached HEAD by its commit; nothing before the first commit', async () => {
    expect(await readHead(repo.dir)).toBeUndefined();
    repo.write('a.txt', 'a\n');
    repo.commit('one');
    const commit = git(repo.dir, 'rev-parse', 'HEAD').trim();
    const head = await readHead(repo.dir);
    expect(head).toMatchObject({ branch: 'main', commit });
    expect(head?.gitDir.endsWith('.git')).toBe(true);
    git(repo.dir, 'checkout', '-q', '--detach');
    expect(await readHead(repo.dir)).toMatchObject({ branch: undefined, commit });
    expect(headLabel(undefined, commit)).toBe(`${commit.slice(0, 7)} (detached)`);
    expect(headLabel('main', commit)).toBe('main');
  });
});
