// The bundled service listens in the range package.json keeps from auto-forwarding, whichever of
// its ports are free, and on any port when none is.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLED_PORTS, BundledService } from '../../extension/src/bundled-service.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
/**
 * The choice is tested on a range of the same size that no window uses: the extension-host suite,
 * which may run at the same time, starts bundled services in BUNDLED_PORTS itself.
 */
const RANGE = { first: 47310, last: 47310 + (BUNDLED_PORTS.last - BUNDLED_PORTS.first) };
const held: net.Server[] = [];
const dirs: string[] = [];

/** Takes a port if it is free; false when something else has it. */
const hold = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => {
      held.push(server);
      resolve(true);
    });
  });

async function start(): Promise<{ port: number; service: BundledService }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-review-ports-'));
  dirs.push(dir);
  const service = new BundledService(dir, quiet, RANGE);
  const { url } = await service.endpoint();
  return { port: Number(new URL(url).port), service };
}

afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the bundled service's port", () => {
  it('is the one free port of its range when the others are taken', async () => {
    let free: number | undefined;
    for (let port = RANGE.first; port <= RANGE.last; port++) {
      if (free === undefined && (await hold(port))) {
        free = port;
        await new Promise((resolve) => held.pop()!.close(resolve)); // leave exactly this one
      } else await hold(port);
    }
    expect(free, 'a port of the range is free on this machine').toBeDefined();
    const { port, service } = await start();
    await service.dispose();
    expect(port).toBe(free);
  }, 30_000);

  it('is any free port when the whole range is taken', async () => {
    for (let port = RANGE.first; port <= RANGE.last; port++) await hold(port);
    const { port, service } = await start();
    await service.dispose();
    expect(port < RANGE.first || port > RANGE.last).toBe(true);
  }, 30_000);
});
