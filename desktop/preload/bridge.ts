// The preload's bridge, Electron-free: given ipcRenderer's two calls, it builds the object the
// renderer sees as window.diffReview. It forwards only the channels of the contract and never
// exposes ipcRenderer itself (Electron's checklist: do not expose the raw IPC API).
import { isIpcChannel, isIpcEvent, type DiffReviewBridge, type IpcResult } from '../shared/ipc-contract.ts';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export function createBridge(ipc: IpcRendererLike): DiffReviewBridge {
  return {
    invoke: (channel, ...args) => {
      if (!isIpcChannel(channel)) return Promise.reject(new Error(`Unknown IPC channel ${String(channel)}`));
      return ipc.invoke(channel, ...args) as Promise<IpcResult<never>>;
    },
    on: (event, listener) => {
      if (!isIpcEvent(event)) throw new Error(`Unknown IPC event ${String(event)}`);
      // The Electron event object (with its sender) stays here; the renderer gets the payload only.
      const wrapped = (_event: unknown, payload: unknown) => listener(payload as never);
      ipc.on(event, wrapped);
      return () => void ipc.removeListener(event, wrapped);
    },
  };
}
