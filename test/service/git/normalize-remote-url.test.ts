import { describe, expect, it } from 'vitest';
import { normalizeRemoteUrl } from '../../../service/git/index.ts';

describe('normalizeRemoteUrl', () => {
  it.each([
    ['git@github.com:acme/widgets.git', 'github.com/acme/widgets'],
    ['git@github.com:acme/widgets', 'github.com/acme/widgets'],
    ['github.com:acme/widgets.git', 'github.com/acme/widgets'],
    ['https://github.com/acme/widgets', 'github.com/acme/widgets'],
    ['https://github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['https://github.com/acme/widgets/', 'github.com/acme/widgets'],
    ['https://GitHub.COM/Acme/Widgets.git', 'github.com/Acme/Widgets'],
    ['https://user:token@github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['https://x-access-token:ghs_abc@github.com/acme/widgets', 'github.com/acme/widgets'],
    ['http://gitlab.example.com:8080/group/sub/widgets.git', 'gitlab.example.com/group/sub/widgets'],
    ['ssh://git@host:22/acme/widgets.git', 'host/acme/widgets'],
    ['ssh://git@Host.Example.com/acme/widgets.git', 'host.example.com/acme/widgets'],
    ['git+ssh://git@github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['git://github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['git@ssh.dev.azure.com:v3/acme/project/widgets', 'ssh.dev.azure.com/v3/acme/project/widgets'],
    ['https://acme@dev.azure.com/acme/project/_git/widgets', 'dev.azure.com/acme/project/_git/widgets'],
    ['  git@github.com:acme/widgets.git\n', 'github.com/acme/widgets'],
    ['/srv/git/widgets.git', 'widgets'],
    ['/srv/git/widgets/', 'widgets'],
    ['file:///srv/git/widgets.git', 'widgets'],
    ['../widgets.git', 'widgets'],
    ['C:\\repos\\widgets.git', 'widgets'],
  ])('%s → %s', (url, expected) => {
    expect(normalizeRemoteUrl(url)).toBe(expected);
  });

  it('never keeps credentials', () => {
    for (const url of ['https://alice:hunter2@example.com/a/b.git', 'ssh://alice:hunter2@example.com:2222/a/b.git']) {
      const normalized = normalizeRemoteUrl(url) ?? '';
      expect(normalized).toBe('example.com/a/b');
      expect(normalized).not.toMatch(/alice|hunter2/);
    }
  });

  it('gives undefined when nothing usable is left', () => {
    expect(normalizeRemoteUrl('')).toBeUndefined();
    expect(normalizeRemoteUrl('   ')).toBeUndefined();
    expect(normalizeRemoteUrl('/')).toBeUndefined();
  });
});
