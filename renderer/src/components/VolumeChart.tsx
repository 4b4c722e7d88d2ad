import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear, scaleOrdinal } from '@visx/scale';
import { BarStack } from '@visx/shape';
import type { Overview } from '../state/overview.ts';

type Key = keyof Overview['volume'][number]['counts'];
type Row = { month: string } & Record<Key, number>;

/** Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. */
const colours: Readonly<Record<Key, string>> = {
  score_records: '#0072B2',
  bias_reports: '#E69F00',
  prri_records: '#009E73',
  drift_events: '#CC79A7',
  pii_detections: '#56B4E9',
  gate_evaluations: '#D55E00',
};
const keys = Object.keys(colours) as Key[];
const width = 640;
const height = 260;
const margin = { top: 12, right: 12, bottom: 32, left: 48 };

/**
 * Evidence volume per month, stacked by schema key (SVG from visx primitives). The chart is one labelled image
 * for screen readers; the same numbers are a real table under "Show as table", and the legend is text.
 */
export const VolumeChart = ({ volume, projectId }: { volume: Overview['volume']; projectId: string }) => {
  const rows: Row[] = volume.map((item) => ({ month: item.month, ...item.counts }));
  const totals = rows.map((row) => keys.reduce((sum, key) => sum + row[key], 0));
  const x = scaleBand<string>({ domain: rows.map((row) => row.month), range: [0, width - margin.left - margin.right], padding: 0.25 });
  const y = scaleLinear<number>({ domain: [0, Math.max(1, ...totals)], range: [height - margin.top - margin.bottom, 0], nice: true });
  const colour = scaleOrdinal<Key, string>({ domain: keys, range: keys.map((key) => colours[key]) });
  const busiest = rows[totals.indexOf(Math.max(...totals))]?.month;
  return (
    <figure className="volume-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="volume-title volume-desc" width="100%">
        <title id="volume-title">Evidence records per month for {projectId}</title>
        <desc id="volume-desc">
          {rows.length} months, {totals.reduce((a, b) => a + b, 0)} records in all; the busiest month is {busiest}. The table below lists
          the numbers.
        </desc>
        <Group left={margin.left} top={margin.top}>
          <BarStack<Row, Key> data={rows} keys={keys} x={(row) => row.month} xScale={x} yScale={y} color={colour}>
            {(stacks) =>
              stacks.map((stack) =>
                stack.bars.map((bar) => (
                  <rect key={`${stack.index}-${bar.index}`} x={bar.x} y={bar.y} width={bar.width} height={bar.height} fill={bar.color} />
                )),
              )
            }
          </BarStack>
          <AxisLeft scale={y} numTicks={5} tickLabelProps={{ fontSize: 11, fill: '#5b6470', textAnchor: 'end' }} />
          <AxisBottom
            top={height - margin.top - margin.bottom}
            scale={x}
            tickLabelProps={{ fontSize: 11, fill: '#5b6470', textAnchor: 'middle' }}
          />
        </Group>
      </svg>
      <figcaption>
        <ul className="legend" aria-label="Schema keys">
          {keys.map((key) => (
            <li key={key}>
              <span className="swatch" style={{ background: colours[key] }} aria-hidden="true" />
              {key}
            </li>
          ))}
        </ul>
        <details>
          <summary>Show as table</summary>
          <table>
            <caption className="sr-only">Evidence records per month and schema key</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                {keys.map((key) => (
                  <th scope="col" key={key}>
                    {key}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.month}>
                  <th scope="row">{row.month}</th>
                  {keys.map((key) => (
                    <td key={key}>{row[key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
};
