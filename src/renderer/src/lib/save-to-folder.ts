import type { Words } from '../../../shared/i18n/translate';
import { downloadBlob } from './download';

/** The parts of the File System Access API used here (Chromium and Electron have it; other browsers do not). */
interface WritableFolder {
  readonly name: string;
  getFileHandle(name: string, options: { create: true }): Promise<{ createWritable(): Promise<{ write(data: Blob): Promise<void>; close(): Promise<void> }> }>;
}
type FolderPicker = (options: { id: string; mode: 'readwrite' }) => Promise<WritableFolder>;

let chosenFolder: WritableFolder | null = null;

const folderPicker = (): FolderPicker | undefined => (window as unknown as { showDirectoryPicker?: FolderPicker }).showDirectoryPicker;

/** The folder picked in this window, if any. */
export const currentFolderName = (): string | null => chosenFolder?.name ?? null;

/** Forgets the folder, so the next save asks again. */
export function forgetFolder(): void {
  chosenFolder = null;
}

/**
 * Writes a file into the folder the person picks (asked once per window; the picker itself reopens where it was
 * last time), or, where the browser cannot write to folders, offers it as a download. Answers where it went, in `words`.
 */
export async function saveToFolder(fileName: string, blob: Blob, { t }: Words): Promise<string> {
  const pick = folderPicker();
  if (!pick) {
    downloadBlob(fileName, blob);
    return t('app:mirror.downloaded', { file: fileName });
  }
  chosenFolder ??= await pick({ id: 'amc-screenshots', mode: 'readwrite' });
  const writable = await (await chosenFolder.getFileHandle(fileName, { create: true })).createWritable();
  await writable.write(blob);
  await writable.close();
  return t('app:mirror.inFolder', { file: fileName, folder: chosenFolder.name });
}
