import { Fragment, type ReactNode } from 'react';

/** One column: its header, and what a row shows in it. */
export type Column<Row> = {
  readonly header: string;
  /** Read by screen readers only (e.g. a column of buttons). */
  readonly hideHeader?: boolean;
  /** The cell names its row (a row header, `th scope="row"`), e.g. the clause id of a clause map. */
  readonly rowHeader?: boolean;
  readonly cell: (row: Row) => ReactNode;
  readonly className?: string;
};

/**
 * The workbench's list table: column headers, one row per item, and, when given, a message across the table
 * when there are no rows. `label` names the table for assistive technology (a caption, visually hidden unless
 * `showLabel`). `detail` may return what to show under a row, across every column (an expanded row).
 */
export const DataTable = <Row,>({
  label,
  showLabel,
  columns,
  rows,
  rowKey,
  rowClassName,
  detail,
  empty,
  className,
}: {
  label?: string;
  showLabel?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowClassName?: (row: Row) => string | undefined;
  detail?: (row: Row) => ReactNode;
  empty?: ReactNode;
  className?: string;
}) => (
  <table className={className}>
    {label ? <caption className={showLabel ? undefined : 'sr-only'}>{label}</caption> : null}
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
      {rows.map((row) => {
        const below = detail?.(row);
        return (
          <Fragment key={rowKey(row)}>
            <tr className={rowClassName?.(row)}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.header} scope="row" className={column.className}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={column.className}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
            {below === undefined || below === null ? null : (
              <tr>
                <td colSpan={columns.length}>{below}</td>
              </tr>
            )}
          </Fragment>
        );
      })}
    </tbody>
  </table>
);
