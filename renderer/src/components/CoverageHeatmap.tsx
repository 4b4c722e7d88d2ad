import type { Overview } from '../state/overview.ts';

type Cell = Overview['heatmap'][number];
const statusText: Readonly<Record<Cell['status'], { text: string; symbol: string }>> = {
  SATISFIED: { text: 'Satisfied', symbol: '✓' },
  PARTIAL: { text: 'Partial', symbol: '◐' },
  GAP: { text: 'Gap', symbol: '✗' },
};

/** Where a cell leads: the Frameworks screen with the project, framework and worst clause preselected. */
export const clauseLink = (projectId: string, framework: string, clause: string): string =>
  `#/frameworks?${new URLSearchParams({ project: projectId, framework, clause }).toString()}`;

/**
 * Framework × top-level clause group, coloured by the group's worst status and always labelled in text; each
 * cell is a link (keyboard reachable) to the clause and its records.
 */
export const CoverageHeatmap = ({ overview }: { overview: Overview }) => (
  <table className="heatmap">
    <caption className="sr-only">Coverage by framework and clause group</caption>
    <tbody>
      {overview.frameworks.map((framework) => {
        const cells = overview.heatmap.filter((cell) => cell.framework === framework.id);
        return (
          <tr key={framework.id}>
            <th scope="row">{framework.name}</th>
            <td>
              <ul className="heat-cells">
                {cells.map((cell) => (
                  <li key={cell.group_id}>
                    <a
                      className={`heat-cell ${cell.status}`}
                      href={clauseLink(overview.project_id, cell.framework, cell.focus_clause)}
                      title={`${cell.group_id} ${cell.group_name}`}
                      aria-label={`${framework.name} ${cell.group_id}: ${statusText[cell.status].text}; ${cell.SATISFIED} satisfied, ${cell.PARTIAL} partial, ${cell.GAP} gap. Open ${cell.focus_clause}`}
                    >
                      <span className="heat-id">{cell.group_id}</span>
                      <span className="heat-status" aria-hidden="true">
                        {statusText[cell.status].symbol} {cell.SATISFIED}/{cell.SATISFIED + cell.PARTIAL + cell.GAP}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        );
      })}
    </tbody>
  </table>
);
