import { contextBridge, ipcRenderer } from 'electron';
import { type BridgeEvent, eventsChannel, opsChannel, type WorkbenchBridge } from '../core/contracts/ipc.ts';

// The whole bridge: one call channel and one event channel. It knows no operation names and imports only the
// IPC contract from core, so adding an operation never touches the preload.
const bridge = {
  call: (name, input, options) => ipcRenderer.invoke(opsChannel, name, input, options),
  subscribe: (name, listener) => {
    const handler = (_event: unknown, message: BridgeEvent): void => {
      if (message.name === name) listener(message.payload);
    };
    ipcRenderer.on(eventsChannel, handler);
    return () => void ipcRenderer.off(eventsChannel, handler);
  },
} satisfies WorkbenchBridge;

contextBridge.exposeInMainWorld('workbench', bridge);
