/** Saves a file through the browser's download (works the same in Electron and in a browser tab). */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is no longer needed once the event loop turns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadText(fileName: string, text: string, mediaType: string): void {
  downloadBlob(fileName, new Blob([text], { type: mediaType }));
}
