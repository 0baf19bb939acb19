// The built-in service in its own process (Electron's utilityProcess), so a stuck or crashing
// review cannot freeze the window. Electron-free: both ends speak through a message port, and the
// tests join the two ends with a stand-in port under Node.
//   main → service:  { type: 'start', userDataDir }   { type: 'stop' }
//   service → main:  { type: 'started', url, dataDir, dashboardToken, shared }
//                    { type: 'failed', message }       { type: 'stopped' }
import type { BuiltInService, BuiltInServiceOptions } from './service-launcher.ts';

export type ToService = { type: 'start'; userDataDir: string } | { type: 'stop' };
export type FromService =
  | { type: 'started'; url: string; dataDir: string; dashboardToken: string; shared: boolean }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

/** The service side: Electron's process.parentPort (messages arrive as { data }). */
export interface ParentPortLike {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
  postMessage(message: FromService): void;
}

/** The main side: Electron's UtilityProcess. */
export interface ServiceProcessLike {
  postMessage(message: ToService): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** In the service process: starts the service when asked, reports, stops when asked. */
export function serveOverParentPort(
  port: ParentPortLike,
  start: (options: BuiltInServiceOptions) => Promise<BuiltInService>,
  exit: () => void = () => process.exit(0),
): void {
  let service: Promise<BuiltInService> | undefined;
  port.on('message', ({ data }) => {
    const message = data as ToService;
    if (message?.type === 'start' && !service) {
      service = start({ userDataDir: message.userDataDir });
      service.then(
        (s) =>
          port.postMessage({
            type: 'started',
            url: s.url,
            dataDir: s.dataDir,
            dashboardToken: s.dashboardToken,
            shared: s.shared,
          }),
        (error: unknown) => port.postMessage({ type: 'failed', message: (error as Error).message ?? String(error) }),
      );
    } else if (message?.type === 'stop') {
      void (service ?? Promise.reject(new Error('not started')))
        .then((s) => s.close())
        .catch(() => {})
        .finally(() => {
          port.postMessage({ type: 'stopped' });
          exit();
        });
    }
  });
}

/**
 * In main: asks the forked process to start the service and answers it as a BuiltInService.
 * `onExit` hears of the process ending on its own (a crash): the connection then goes offline.
 */
export function builtInFromProcess(
  child: ServiceProcessLike,
  userDataDir: string,
  onExit: (code: number) => void,
): Promise<BuiltInService> {
  return new Promise((resolve, reject) => {
    let stopping: (() => void) | undefined;
    let settled = false;
    child.on('exit', (code) => {
      if (stopping) return stopping();
      if (settled) return onExit(code);
      settled = true;
      reject(new Error(`The built-in service's process ended (code ${code}) before it started.`));
    });
    child.on('message', (raw) => {
      const message = raw as FromService;
      if (settled) return;
      if (message.type === 'failed') {
        settled = true;
        reject(new Error(message.message));
        stopping = () => {};
        child.kill();
      } else if (message.type === 'started') {
        settled = true;
        resolve({
          url: message.url,
          dataDir: message.dataDir,
          dashboardToken: message.dashboardToken,
          shared: message.shared,
          close: () =>
            new Promise<void>((done) => {
              stopping = done;
              child.postMessage({ type: 'stop' });
            }),
        });
      }
    });
    child.postMessage({ type: 'start', userDataDir });
  });
}
