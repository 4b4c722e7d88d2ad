import { downloadBlob } from '../components/download.ts';
import { callOp } from './call.ts';

/** Fetches a bundle's OSCAL Assessment Results and hands it to the browser (or Electron) as a JSON download. */
export const downloadOscal = async (bundleId: string): Promise<void> => {
  const document = await callOp('cec.oscalExport', { bundle_id: bundleId });
  downloadBlob(`${JSON.stringify(document, null, 2)}\n`, 'application/json', `${bundleId}.oscal.json`);
};
