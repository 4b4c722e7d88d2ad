import type { ReactNode } from 'react';

/** One column: its header, and what a row shows in it. */
export type Column<Row> = {
  readonly header: string;
  /** Read by screen readers only (e.g. a column of buttons). */
  readonly hideHeader?: boolean;
  readonly cell: (row: Row) => ReactNode;
  readonly className?: string;
};

/**
 * The workbench's list table: column headers, one row per item, and, when given, a message across the table
 * when there are no rows. `label` names the table for assistive technology (a visually hidden caption).
 */
export const DataTable = <Row,>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  className,
}: {
  label?: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty?: ReactNode;
  className?: string;
}) => (
  <table className={className}>
    {label ? <caption className="sr-only">{label}</caption> : null}
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column.header} scope="col">
            {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
          </th>
        ))}
      </tr>
    </thead>
    <tbody>
      {rows.length === 0 && empty !== undefined ? (
        <tr>
          <td colSpan={columns.length} className="muted">
            {empty}
          </td>
        </tr>
      ) : null}
      {rows.map((row) => (
        <tr key={rowKey(row)}>
          {columns.map((column) => (
            <td key={column.header} className={column.className}>
              {column.cell(row)}
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  </table>
);
