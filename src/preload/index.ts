import { contextBridge, ipcRenderer } from 'electron';
import { buildPreloadApi } from './api';

// The only object the page sees: typed, per-method and per-event, with no ipcRenderer and no event objects.
contextBridge.exposeInMainWorld('amc', buildPreloadApi(ipcRenderer, process.argv));
