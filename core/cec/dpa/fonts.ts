import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Unicode TrueType fonts embedded in PDF exports. DejaVu covers Latin, Greek, Cyrillic, Hebrew, Arabic and
 * many symbols; it ships with most Linux systems (Debian: fonts-dejavu-core). SVC_DPA_FONT_DIR points at a
 * folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf on systems without them.
 */
export type PdfFonts = { readonly regular: string; readonly bold: string } | null;

const fontDirs = (env: NodeJS.ProcessEnv): string[] => [
  ...(env.SVC_DPA_FONT_DIR === undefined ? [] : [env.SVC_DPA_FONT_DIR]),
  '/usr/share/fonts/truetype/dejavu',
  '/usr/share/fonts/dejavu',
  '/usr/share/fonts/TTF',
  '/usr/local/share/fonts',
  '/Library/Fonts',
  '/opt/homebrew/share/fonts',
  ...(env.WINDIR === undefined ? [] : [join(env.WINDIR, 'Fonts')]),
];

/** The first folder holding both DejaVu faces, or null: the PDF then falls back to a Latin-1 base font. */
export const findPdfFonts = (env: NodeJS.ProcessEnv): PdfFonts => {
  for (const dir of fontDirs(env)) {
    const regular = join(dir, 'DejaVuSans.ttf');
    const bold = join(dir, 'DejaVuSans-Bold.ttf');
    if (existsSync(regular) && existsSync(bold)) return { regular, bold };
  }
  return null;
};
