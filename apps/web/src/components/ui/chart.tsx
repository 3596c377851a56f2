import { useId, type ReactNode } from 'react';

export interface ChartDatum {
  /** Stable identity of the category (a day as YYYY-MM-DD, say). */
  key: string;
  /** The category as people read it ("Jan 5"). */
  label: string;
  value: number;
}

export interface BarChartProps {
  /** Says what is charted and how it was computed; shown under the chart and names the figure. */
  caption: ReactNode;
  data: readonly ChartDatum[];
  formatValue(value: number): string;
  /** Column headers of the data table read by screen readers. */
  categoryHeader: string;
  valueHeader: string;
  /** Names the data table ("Revenue per day"). */
  tableLabel: string;
  /** How many category labels the axis shows at most (the data table always has all of them). */
  maxAxisLabels?: number;
}

const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { top: 12, right: 8, bottom: 28, left: 72 };
const GRID_LINES = 4;

/** The smallest "round" number (1, 2, 2.5 or 5 times a power of ten) at or above `value`. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((candidate) => candidate * magnitude >= value) ?? 10;
  return step * magnitude;
}

/** Indexes of the categories labelled on the axis: evenly spaced, always the last one. */
export function axisLabelIndexes(count: number, maxLabels: number): number[] {
  if (count === 0) return [];
  const every = Math.max(1, Math.ceil(count / Math.max(1, maxLabels)));
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= every) indexes.unshift(index);
  return indexes;
}

/**
 * A bar chart drawn in SVG. The drawing is hidden from assistive technology: the same numbers are in a
 * visually hidden table, and the caption names the figure, so a screen reader gets the data as data.
 */
export function BarChart({
  caption,
  data,
  formatValue,
  categoryHeader,
  valueHeader,
  tableLabel,
  maxAxisLabels = 6,
}: BarChartProps) {
  const top = niceCeiling(Math.max(0, ...data.map((datum) => datum.value)));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = data.length > 0 ? plotWidth / data.length : plotWidth;
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => PLOT.top + plotHeight - (Math.max(0, value) / top) * plotHeight;
  const labelled = new Set(axisLabelIndexes(data.length, maxAxisLabels));
  const captionId = useId();

  return (
    <figure aria-labelledby={captionId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full text-slate-600"
      >
        {Array.from({ length: GRID_LINES + 1 }, (_, step) => {
          const value = (top / GRID_LINES) * step;
          return (
            <g key={step}>
              <line
                x1={PLOT.left}
                x2={WIDTH - PLOT.right}
                y1={y(value)}
                y2={y(value)}
                className={step === 0 ? 'stroke-slate-400' : 'stroke-slate-200'}
                strokeWidth={1}
              />
              <text x={PLOT.left - 8} y={y(value)} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
                {formatValue(value)}
              </text>
            </g>
          );
        })}
        {data.map((datum, index) => {
          const x = PLOT.left + slot * index + (slot - barWidth) / 2;
          const height = PLOT.top + plotHeight - y(datum.value);
          return (
            <g key={datum.key}>
              {height > 0 && (
                <rect x={x} y={y(datum.value)} width={barWidth} height={height} rx={2} className="fill-blue-700">
                  <title>{`${datum.label}: ${formatValue(datum.value)}`}</title>
                </rect>
              )}
              {labelled.has(index) && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - PLOT.bottom + 18}
                  textAnchor="middle"
                  fontSize={11}
                  fill="currentColor"
                >
                  {datum.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption id={captionId} className="mt-2 text-sm text-slate-600">
        {caption}
      </figcaption>
      <table className="sr-only" aria-label={tableLabel}>
        <thead>
          <tr>
            <th scope="col">{categoryHeader}</th>
            <th scope="col">{valueHeader}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((datum) => (
            <tr key={datum.key}>
              <th scope="row">{datum.label}</th>
              <td>{formatValue(datum.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
