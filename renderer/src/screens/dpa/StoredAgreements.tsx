import { DataTable } from '../../components/DataTable.tsx';
import type { DpaFormat, DpaSummary } from '../../state/dpa.ts';
import { formats } from './formats.ts';

/** Every stored agreement, newest first, with its exports and a delete. */
export const StoredAgreements = ({
  documents,
  download,
  remove,
}: {
  documents: readonly DpaSummary[];
  download: (id: string, format: DpaFormat) => void;
  remove: (id: string) => void;
}) => (
  <>
    <h2>Stored agreements</h2>
    <DataTable
      label="Stored agreements"
      className="dpa-table"
      rows={documents}
      rowKey={(doc) => doc.document_id}
      empty="No agreements yet."
      columns={[
        { header: 'Generated', cell: (doc) => new Date(doc.generated_at).toLocaleString() },
        { header: 'Project', cell: (doc) => doc.project_id },
        { header: 'Controller', cell: (doc) => doc.controller_name },
        { header: 'Processor', cell: (doc) => doc.processor_name },
        {
          header: 'Actions',
          className: 'row',
          cell: (doc) => (
            <>
              {formats.map(({ format, label }) => (
                <button
                  key={format}
                  type="button"
                  aria-label={`${label} of ${doc.document_id}`}
                  onClick={() => download(doc.document_id, format)}
                >
                  {label}
                </button>
              ))}
              <button type="button" className="danger" aria-label={`Delete ${doc.document_id}`} onClick={() => remove(doc.document_id)}>
                Delete
              </button>
            </>
          ),
        },
      ]}
    />
  </>
);
