// The preload entry (sandboxed): the only renderer-side file that imports electron.
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_KEY } from '../shared/ipc-contract.ts';
import { createBridge } from './bridge.ts';

contextBridge.exposeInMainWorld(BRIDGE_KEY, createBridge(ipcRenderer));
