/**
 * Hands bytes to the user as a file through a temporary Blob URL: the same in Electron and the browser. The URL
 * is revoked a little later, not at once, so the download has started before it goes.
 */
export const downloadBlob = (content: BlobPart, mime: string, filename: string): void => {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  const anchor = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};

/** A file as ops return it (`dpa.export`): base64 content, its media type and a suggested name. */
export const downloadBase64 = (file: { readonly base64: string; readonly mime: string; readonly filename: string }): void =>
  downloadBlob(
    Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0)),
    file.mime,
    file.filename,
  );
