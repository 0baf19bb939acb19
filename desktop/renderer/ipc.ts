// The renderer's only way out: the bridge the preload exposes (typed by the shared contract).
import {
  BRIDGE_KEY,
  type DiffReviewBridge,
  type IpcArgs,
  type IpcChannel,
  type IpcResult,
  type IpcReturn,
} from '../shared/ipc-contract.ts';

declare global {
  interface Window {
    [BRIDGE_KEY]?: DiffReviewBridge;
  }
}

export function bridge(): DiffReviewBridge {
  const found = window[BRIDGE_KEY];
  if (!found) throw new Error('The Diff Review bridge is missing: the page was not opened by the app.');
  return found;
}

export function invoke<C extends IpcChannel>(channel: C, ...args: IpcArgs<C>): Promise<IpcResult<IpcReturn<C>>> {
  return bridge()
    .invoke(channel, ...args)
    .catch((error: unknown) => ({
      ok: false as const,
      error: { kind: 'internal' as const, message: String((error as Error)?.message ?? error) },
    }));
}
