import type { DpaFormat } from '../../state/dpa.ts';

/** The export formats, in the order the buttons show them. */
export const formats: readonly { format: DpaFormat; label: string }[] = [
  { format: 'pdf', label: 'PDF' },
  { format: 'docx', label: 'DOCX' },
  { format: 'html', label: 'HTML' },
  { format: 'md', label: 'Markdown' },
];
