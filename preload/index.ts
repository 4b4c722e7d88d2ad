import { contextBridge, ipcRenderer } from 'electron';

// The whole bridge: one call channel and one event channel. It knows no operation names and imports nothing
// from core, so adding an operation never touches the preload.
const opsChannel = 'ops:call';
const eventsChannel = 'ops:event';

contextBridge.exposeInMainWorld('workbench', {
  call: (name: string, input: unknown, options?: { requestId?: string }) => ipcRenderer.invoke(opsChannel, name, input, options),
  subscribe: (name: string, listener: (payload: unknown) => void) => {
    const handler = (_event: unknown, message: { name: string; payload: unknown }): void => {
      if (message.name === name) listener(message.payload);
    };
    ipcRenderer.on(eventsChannel, handler);
    return () => void ipcRenderer.off(eventsChannel, handler);
  },
});
