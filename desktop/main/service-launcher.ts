// The built-in service: createService in its own process (Electron's utilityProcess, see
// service-process.ts), on port 7411 when free, its data in the app's user-data folder, its dashboard token read from the file the service writes. Built as its own bundle
// (dist/desktop/service-launcher.js), loaded only when the built-in service is chosen.
import { createWriteStream, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createService, dashboardTokenFile, type ServiceOptions } from '../../service/index.ts';
import { DEFAULTS } from '../../service/defaults.ts';
import { DataDirBusyError, liveLockOwner } from '../../service/store/data-dir-lock.ts';
import { type ParentPortLike, serveOverParentPort } from './service-process.ts';

export interface BuiltInService {
  url: string;
  dataDir: string;
  /** The dashboard token, read from <data dir>/dashboard-token. Stays in the main process. */
  dashboardToken: string;
  /** True when another process already runs the service on this data dir and we use it. */
  shared: boolean;
  close(): Promise<void>;
}

export interface BuiltInServiceOptions {
  /** Electron's app.getPath('userData'). */
  userDataDir: string;
  /** Extra createService options (tests: logLevel, concurrency). */
  service?: Partial<ServiceOptions>;
  /**
   * The port tried first (the CLI's default, 7411): other tools find the service at the address
   * they expect. When it is taken, any free port.
   */
  preferredPort?: number;
}

const addressInUse = (error: unknown) => (error as { code?: unknown } | null)?.code === 'EADDRINUSE';

export const builtInDataDir = (userDataDir: string) => path.join(userDataDir, 'service');
export const serviceLogFile = (userDataDir: string) => path.join(userDataDir, 'logs', 'service.log');

export async function startBuiltInService(options: BuiltInServiceOptions): Promise<BuiltInService> {
  const dataDir = builtInDataDir(options.userDataDir);
  const logFile = serviceLogFile(options.userDataDir);
  mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
  const logStream = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  try {
    const start = (port: number) => createService({ dataDir, port, logLevel: 'info', logStream, ...options.service });
    const service = await start(options.preferredPort ?? DEFAULTS.cliPort).catch((error: unknown) => {
      if (addressInUse(error)) return start(0);
      throw error;
    });
    const dashboardToken = options.service?.dashboardToken ?? (await readToken(dashboardTokenFile(dataDir)));
    return {
      url: service.url,
      dataDir,
      dashboardToken,
      shared: false,
      close: async () => {
        await service.close();
        await new Promise<void>((resolve) => logStream.end(resolve));
      },
    };
  } catch (error) {
    logStream.end();
    // A second copy of the app (or a service started by hand on this folder) already serves it:
    // use that one instead of failing.
    const owner = error instanceof DataDirBusyError ? liveLockOwner(dataDir) : undefined;
    if (owner?.url) {
      return {
        url: owner.url,
        dataDir,
        dashboardToken: await readToken(dashboardTokenFile(dataDir)),
        shared: true,
        close: async () => {},
      };
    }
    throw error;
  }
}

async function readToken(file: string): Promise<string> {
  const token = (await readFile(file, 'utf8')).trim();
  if (!token) throw new Error(`The dashboard token file ${file} is empty.`);
  return token;
}

// As Electron's utilityProcess entry (dist/desktop/service-launcher.js, forked by main/index.ts):
// driven over process.parentPort (service-process.ts). Imported as a module (tests), it does nothing.
const parentPort = (process as { parentPort?: ParentPortLike }).parentPort;
if (parentPort) serveOverParentPort(parentPort, startBuiltInService);
