// Runs in the test page instead of the Electron preload: the SAME createBridge, over an
// ipcRenderer stand-in whose invoke goes to the main-process router in the test (through a
// Playwright binding that reports the calling frame) and whose events come from page.evaluate.
import { createBridge, type IpcRendererLike } from '../../../desktop/preload/bridge.ts';
import { BRIDGE_KEY } from '../../../desktop/shared/ipc-contract.ts';

type Listener = (event: unknown, payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
const page = window as unknown as {
  __diffReviewInvoke(channel: string, args: unknown[]): Promise<unknown>;
  __diffReviewEmit(channel: string, payload: unknown): void;
};

const ipcRenderer: IpcRendererLike = {
  invoke: (channel, ...args) => page.__diffReviewInvoke(channel, args),
  on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
  removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
};
page.__diffReviewEmit = (channel, payload) => {
  for (const listener of listeners.get(channel) ?? []) listener({ sender: 'main' }, payload);
};
Object.defineProperty(window, BRIDGE_KEY, { value: Object.freeze(createBridge(ipcRenderer)) });
