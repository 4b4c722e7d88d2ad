import { callOp } from './call.ts';

/** Fetches a bundle's OSCAL Assessment Results and hands it to the browser (or Electron) as a JSON download. */
export const downloadOscal = async (bundleId: string): Promise<void> => {
  const document = await callOp('cec.oscalExport', { bundle_id: bundleId });
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(document, null, 2)}\n`], { type: 'application/json' }));
  const link = Object.assign(window.document.createElement('a'), { href: url, download: `${bundleId}.oscal.json` });
  window.document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
};
