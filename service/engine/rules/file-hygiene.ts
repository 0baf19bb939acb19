// Whole-file hygiene: generated or vendored files edited, lockfiles changed without their
// manifest, very large added files. Info, once per file, on its first added line.
import { baseName, lastPathMemo } from './files.ts';
import type { FileRule } from './rule.ts';

// Not build/ or out/: as many projects keep their build scripts there as their build output
// (which, committed, is caught by its generator's marker or its .min. name).
const GENERATED_PATH =
  /(^|\/)(node_modules|vendor|third_party|third-party|bower_components|dist|coverage|__generated__|generated)\/|\.min\.(js|css)$|\.(pb|pb\.gw)\.go$|_pb2(_grpc)?\.py$|\.g\.(dart|cs)$|\.designer\.cs$|\.generated\.\w+$|\.snap$/;
const GENERATED_MARKER =
  /@generated\b|\bDO NOT EDIT\b|Code generated .* DO NOT EDIT|auto-?generated (?:file|by)|This file (?:is|was) (?:automatically )?generated/i;
const LOCKFILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
]);

export const generatedFile: FileRule = {
  kind: 'file',
  id: 'generated-file',
  severity: 'info',
  summary: 'A generated or vendored file was changed by hand or committed.',
  help: "Change the source it is generated from (or the vendored package's version) and regenerate; hand edits are lost on the next generation.",
  message:
    'This file looks generated or vendored; change its source and regenerate it rather than editing it, and check that it belongs in the change.',
  check(file) {
    const path = file.newPath;
    if (path === null || lockfileOf(path).lockfile) return null;
    let generated = GENERATED_PATH.test(path);
    // Generators announce themselves in the first lines of the file.
    if (!generated && file.head !== null) generated = GENERATED_MARKER.test(file.head);
    if (!generated) return null;
    const line = file.firstAddedLine;
    return line === null ? null : { line };
  },
};

/** Lockfile → the manifests one of which changes with it (same folder). A Map: "constructor" is no lockfile. */
const MANIFEST_OF_LOCKFILE = new Map<string, string[]>(
  Object.entries({
    'package-lock.json': ['package.json'],
    'npm-shrinkwrap.json': ['package.json'],
    'yarn.lock': ['package.json'],
    'pnpm-lock.yaml': ['package.json', 'pnpm-workspace.yaml'],
    'bun.lock': ['package.json'],
    'Cargo.lock': ['Cargo.toml'],
    'poetry.lock': ['pyproject.toml'],
    'uv.lock': ['pyproject.toml'],
    'Pipfile.lock': ['Pipfile'],
    'Gemfile.lock': ['Gemfile', 'gems.rb'],
    'go.sum': ['go.mod'],
    'composer.lock': ['composer.json'],
    'mix.lock': ['mix.exs'],
    'pubspec.lock': ['pubspec.yaml'],
    'Podfile.lock': ['Podfile'],
    'flake.lock': ['flake.nix'],
  }),
);

export const lockfileWithoutManifest: FileRule = {
  kind: 'file',
  id: 'lockfile-without-manifest',
  severity: 'info',
  summary: 'A lockfile changed while its manifest (package.json, Cargo.toml, ...) did not.',
  help: 'If the dependency change is intended, say so in the pull request; otherwise restore the lockfile (it often changes by accident with a different package-manager version).',
  message:
    'The lockfile changed but its manifest did not; make sure the dependency change is intended, or restore the lockfile.',
  check(file, files) {
    const path = file.newPath;
    if (path === null) return null;
    const { manifests } = lockfileOf(path);
    if (!manifests) return null;
    const folder = path.slice(0, path.length - baseName(path).length);
    // A workspace lockfile at the root changes with the manifest of any package below it.
    const manifestChanged = files.some((other) => {
      const otherPath = other.newPath ?? other.oldPath;
      return otherPath?.startsWith(folder) && manifests.includes(baseName(otherPath));
    });
    if (manifestChanged) return null;
    const line = file.firstAddedLine;
    return line === null ? null : { line };
  },
};

/**
 * Whether a path is a lockfile, and the manifests that change with it. Worked out once a file:
 * the engine asks the file rules about one path in a row.
 */
const lockfileOf = lastPathMemo((path: string): { lockfile: boolean; manifests: string[] | undefined } => {
  const name = baseName(path);
  const manifests = MANIFEST_OF_LOCKFILE.get(name);
  return { lockfile: LOCKFILES.has(name) || manifests !== undefined, manifests };
});

/** An added file this long is hard to review: likely generated data, a bundle or a dump. */
export const LARGE_FILE_LINES = 2000;
export const LARGE_FILE_CHARS = 256 * 1024;

export const largeFile: FileRule = {
  kind: 'file',
  id: 'large-file',
  severity: 'info',
  summary: `A very large file was added (over ${LARGE_FILE_LINES} lines or ${LARGE_FILE_CHARS / 1024} KiB).`,
  help: 'Check that it belongs in the repository: generated output, bundles, data dumps and binaries are better built, downloaded or kept in Git LFS.',
  message: `This added file is very large (over ${LARGE_FILE_LINES} lines or ${LARGE_FILE_CHARS / 1024} KiB); check that it belongs in the repository rather than being built or stored in Git LFS.`,
  check(file) {
    if (file.status !== 'added' && file.status !== 'copied') return null;
    // Lockfiles are large by nature; lockfile-without-manifest is the rule about them.
    if (file.newPath !== null && lockfileOf(file.newPath).lockfile) return null;
    if (file.addedLines <= LARGE_FILE_LINES && file.hunkChars <= LARGE_FILE_CHARS) return null;
    const line = file.firstAddedLine;
    return line === null ? null : { line };
  },
};

export const fileHygieneRules = [generatedFile, lockfileWithoutManifest, largeFile];
