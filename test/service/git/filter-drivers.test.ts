import { describe, expect, it } from 'vitest';
import {
  configEnvironment,
  filterOverrides,
  honoursOverrides,
  LISTING_CANARY,
} from '../../../service/git/filter-drivers.ts';

/** The output of FILTER_COMMANDS_LISTING for these entries. */
const listing = (...entries: [scope: string, key: string, value: string][]) =>
  entries.map(([scope, key, value]) => `${scope}\0${key}\n${value}\0`).join('');

describe('filterOverrides', () => {
  it('leaves the filters of the user alone', () => {
    expect(
      filterOverrides(
        listing(
          ['system', 'filter.a.clean', 'a'],
          ['global', 'filter.lfs.process', 'git-lfs filter-process'],
          ['command', 'filter.c.smudge', 'c'],
        ),
      ),
    ).toEqual([]);
  });

  it("blanks the repository's own filter commands and marks their drivers not required", () => {
    expect(
      filterOverrides(
        listing(
          ['local', 'filter.evil.clean', 'touch x'],
          ['worktree', 'filter.evil.process', 'touch y'],
          ['local', 'filter.we=ird.name.smudge', 'z'],
        ),
      ),
    ).toEqual([
      { key: 'filter.evil.clean', value: '' },
      { key: 'filter.evil.process', value: '' },
      { key: 'filter.we=ird.name.smudge', value: '' },
      { key: 'filter.evil.required', value: 'false' },
      { key: 'filter.we=ird.name.required', value: 'false' },
    ]);
  });

  it("gives back the user's value where the repository overrides it, and treats unknown scopes as the repository's", () => {
    expect(
      filterOverrides(
        listing(
          ['global', 'filter.lfs.process', 'git-lfs filter-process'],
          ['local', 'filter.lfs.process', 'evil'],
          ['submodule', 'filter.x.clean', 'y'],
        ),
      ),
    ).toEqual([
      { key: 'filter.lfs.process', value: 'git-lfs filter-process' },
      { key: 'filter.x.clean', value: '' },
      { key: 'filter.x.required', value: 'false' },
    ]);
  });

  it('lets the last value of a key win, as git does, and keeps values with newlines whole', () => {
    expect(
      filterOverrides(listing(['local', 'filter.a.clean', 'evil\nmore'], ['command', 'filter.a.clean', 'cat'])),
    ).toEqual([]);
    expect(
      filterOverrides(listing(['command', 'filter.a.clean', 'cat'], ['local', 'filter.a.clean', 'evil\nmore'])),
    ).toEqual([{ key: 'filter.a.clean', value: 'cat' }]);
    expect(filterOverrides('')).toEqual([]);
  });
});

describe('configEnvironment', () => {
  it('numbers its settings after those the environment already carries', () => {
    const settings = [
      { key: 'filter.a.clean', value: '' },
      { key: 'filter.a.required', value: 'false' },
    ];
    expect(configEnvironment({}, [])).toEqual({});
    expect(configEnvironment({}, settings)).toEqual({
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'filter.a.clean',
      GIT_CONFIG_VALUE_0: '',
      GIT_CONFIG_KEY_1: 'filter.a.required',
      GIT_CONFIG_VALUE_1: 'false',
    });
    expect(
      configEnvironment({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'me' }, settings),
    ).toEqual({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_1: 'filter.a.clean',
      GIT_CONFIG_VALUE_1: '',
      GIT_CONFIG_KEY_2: 'filter.a.required',
      GIT_CONFIG_VALUE_2: 'false',
    });
  });
});

describe('honoursOverrides', () => {
  it('is true only when the canary came back as a command-line setting', () => {
    const canary: [string, string, string] = ['command', LISTING_CANARY.key, LISTING_CANARY.value];
    expect(honoursOverrides(listing(['global', 'filter.lfs.process', 'git-lfs filter-process'], canary))).toBe(true);
    expect(honoursOverrides(listing(['global', 'filter.lfs.process', 'git-lfs filter-process']))).toBe(false);
    expect(honoursOverrides(listing(['local', LISTING_CANARY.key, LISTING_CANARY.value]))).toBe(false);
    expect(honoursOverrides('')).toBe(false);
  });
});
