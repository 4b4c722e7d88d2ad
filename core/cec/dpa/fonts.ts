import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Unicode TrueType fonts embedded in PDF exports: DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, Arabic and
 * many symbols), shipped with the app as the `dejavu-fonts-ttf` npm package (Bitstream Vera / public-domain
 * licence), so exports look the same on every machine. `SVC_DPA_FONT_DIR` points at a folder holding
 * DejaVuSans.ttf and DejaVuSans-Bold.ttf to use instead. CJK is not covered (see docs/decisions.md).
 */
export type PdfFonts = { readonly regular: string; readonly bold: string } | null;

const require = createRequire(import.meta.url);
const bundledDir = (): string | null => {
  try {
    return join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  } catch {
    return null;
  }
};

/** The override folder, else the bundled fonts; null only when neither has both faces (Latin-1 base font). */
export const findPdfFonts = (fontDir: string | undefined): PdfFonts => {
  for (const dir of [fontDir, bundledDir()]) {
    if (dir === undefined || dir === null || dir === '') continue;
    const regular = join(dir, 'DejaVuSans.ttf');
    const bold = join(dir, 'DejaVuSans-Bold.ttf');
    if (existsSync(regular) && existsSync(bold)) return { regular, bold };
  }
  return null;
};
