// Packaging cannot run here (no Electron binary), so its inputs are checked instead:
// electron-builder.yml against electron-builder's own JSON schema, and the icons it references.
import type { Configuration } from 'app-builder-lib';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { BUILD_RESOURCES, ICNS_TYPES, ICO_SIZES, iconFiles } from '../../desktop/scripts/make-icons.ts';

const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const configFile = path.join(root, 'desktop/electron-builder.yml');
const config = parse(readFileSync(configFile, 'utf8')) as Configuration;

function validator() {
  const schema = JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'));
  // electron-builder's schema has a few non-standard keywords (descriptions for its docs).
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(schema);
}

/** width, height of a PNG, and whether it is 8-bit RGBA. */
function pngInfo(bytes: Buffer) {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), rgba: bytes[24] === 8 && bytes[25] === 6 };
}

describe('desktop packaging (electron-builder)', () => {
  it("has a configuration electron-builder's schema accepts, for Linux, macOS and Windows", () => {
    const validate = validator();
    const valid = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
    expect(Object.keys(config)).toEqual(expect.arrayContaining(['appId', 'productName', 'linux', 'mac', 'win']));
    expect(config.linux?.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac?.target).toEqual(expect.arrayContaining(['dmg']));
    expect(config.win?.target).toEqual(expect.arrayContaining(['nsis']));
    // The schema check is live: a misspelt option is refused.
    expect(validate({ ...config, mac: { ...config.mac, icno: 'icon.icns' } })).toBe(false);
    expect(validate({ ...config, win: { ...config.win, target: 42 } })).toBe(false);
  });

  it('packages the built app: its entry is the main bundle', () => {
    expect(config.extraMetadata?.main).toBe('dist/desktop/main.js');
    expect(config.files).toContain('dist/desktop/**/*');
    expect(config.directories?.buildResources).toBe('desktop/build-resources');
    expect(path.resolve(root, String(config.directories?.buildResources))).toBe(BUILD_RESOURCES);
  });

  it('hardens the packaged binary: asar on, and the fuses set (issue 14)', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toBeUndefined();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // The fuse names are electron-builder's own (a misspelt fuse is refused by its schema).
    const validate = validator();
    expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } })).toBe(false);
  });

  it("references icons that exist in the build resources, in each system's format", () => {
    const icons = { top: config.icon, linux: config.linux?.icon, mac: config.mac?.icon, win: config.win?.icon };
    expect(icons).toEqual({ top: 'icon.png', linux: 'icon.png', mac: 'icon.icns', win: 'icon.ico' });
    for (const name of Object.values(icons))
      expect(existsSync(path.join(BUILD_RESOURCES, String(name))), String(name)).toBe(true);

    const png = readFileSync(path.join(BUILD_RESOURCES, 'icon.png'));
    expect(pngInfo(png)).toEqual({ width: 512, height: 512, rgba: true });

    const ico = readFileSync(path.join(BUILD_RESOURCES, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, ICO_SIZES.length]);
    const icoSizes = ICO_SIZES.map((_, i) => {
      const entry = ico.subarray(6 + 16 * i, 6 + 16 * (i + 1));
      const [width, height] = [entry[0] || 256, entry[1] || 256];
      const image = ico.subarray(entry.readUInt32LE(12), entry.readUInt32LE(12) + entry.readUInt32LE(8));
      expect(pngInfo(image)).toEqual({ width, height, rgba: true });
      return width;
    });
    // electron-builder wants a Windows icon of at least 256×256.
    expect(Math.max(...icoSizes)).toBe(256);

    const icns = readFileSync(path.join(BUILD_RESOURCES, 'icon.icns'));
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: [string, number][] = [];
    for (let offset = 8; offset < icns.length; offset += icns.readUInt32BE(offset + 4)) {
      const type = icns.toString('latin1', offset, offset + 4);
      const { width, height } = pngInfo(icns.subarray(offset + 8, offset + icns.readUInt32BE(offset + 4)));
      expect(width).toBe(height);
      found.push([type, width]);
    }
    expect(found).toEqual(ICNS_TYPES);
  });

  it('has the icons its script draws (run `node desktop/scripts/make-icons.ts` after changing it)', () => {
    for (const [name, bytes] of Object.entries(iconFiles())) {
      expect(readFileSync(path.join(BUILD_RESOURCES, name)).equals(bytes), `${name} is out of date`).toBe(true);
    }
  });
});
