// Dispatches renderer requests to their handlers, after checking who sent them. Electron-free:
// main/index.ts feeds it ipcMain's events; the browser tests feed it a page's calls.
import { isIpcChannel, type IpcArgs, type IpcChannel, type IpcResult, type IpcReturn } from '../shared/ipc-contract.ts';
import { ApiError } from '../../service/client/index.ts';
import { toIpcError } from './ipc-errors.ts';

/** One handler per channel of the contract; the compiler checks arguments and results. */
export type IpcHandlers = { [C in IpcChannel]: (...args: IpcArgs<C>) => Promise<IpcReturn<C>> };

/** The part of Electron's WebFrameMain the check needs. */
export interface SenderFrame {
  url: string;
  /** null for a top-level frame. */
  parent: unknown;
}

/**
 * A request is trusted only from the top frame of the app's own page: the page's URL (without
 * query or hash) equals the renderer's URL (app://renderer/index.html). An iframe, a page the window was navigated to,
 * or any other origin is refused (Electron's checklist: validate the sender of all IPC messages).
 */
export function isTrustedSender(frame: SenderFrame | null | undefined, rendererUrl: string): boolean {
  if (!frame || frame.parent) return false;
  try {
    const url = new URL(frame.url);
    const trusted = new URL(rendererUrl);
    return url.protocol === trusted.protocol && url.host === trusted.host && url.pathname === trusted.pathname;
  } catch {
    return false;
  }
}

export interface IpcRouterOptions {
  handlers: IpcHandlers;
  rendererUrl: string;
  /** Logs refusals and unexpected errors (never arguments: they may hold secrets). */
  log: (level: 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
}

export interface IpcRouter {
  /** Runs the channel's handler for a request from `frame`; never throws. */
  dispatch(channel: unknown, frame: SenderFrame | null | undefined, args: unknown[]): Promise<IpcResult<unknown>>;
}

export function createIpcRouter(options: IpcRouterOptions): IpcRouter {
  return {
    async dispatch(channel, frame, args) {
      if (!isTrustedSender(frame, options.rendererUrl)) {
        options.log('warn', 'refused an IPC request from an untrusted sender', {
          channel: String(channel),
          url: frame?.url,
        });
        return {
          ok: false,
          error: { kind: 'forbidden', message: 'This request did not come from the Diff Review window.' },
        };
      }
      if (!isIpcChannel(channel)) {
        return { ok: false, error: { kind: 'invalid_input', message: `Unknown request ${String(channel)}.` } };
      }
      try {
        const handler = options.handlers[channel] as (...a: unknown[]) => Promise<unknown>;
        return { ok: true, value: await handler(...args) };
      } catch (error) {
        const ipcError = toIpcError(error, channel);
        if (ipcError.kind === 'internal') options.log('error', 'IPC handler failed', { channel, err: error });
        // The window shows the app's wording; the service's own text is kept here.
        if (error instanceof ApiError)
          options.log('warn', 'the service refused a request', {
            channel,
            status: error.status,
            code: error.error,
            serviceMessage: error.message,
          });
        return { ok: false, error: ipcError };
      }
    },
  };
}
