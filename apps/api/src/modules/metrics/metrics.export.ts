import { csvLine, isoformat, type CsvValue } from '../../platform/http/csv.js';
import type { MetricsResponseWire } from './metrics.schemas.js';

/**
 * `GET /v1/metrics/export`: the periods of `GET /v1/metrics/` as CSV, as the reference writes them: a
 * `Timestamp` column (the period's start, in UTC), then one column per metric named by its display
 * name, in the order of the metrics (the reference's, then Tessera's extensions), only those asked for
 * when `slugs` is given. Counts and amounts (minor units) as integers; a percentage as a Python float
 * prints (`0.5`, `1.0`).
 */
export function metricsCsvLines(response: MetricsResponseWire, slugs?: readonly string[]): string[] {
  const wanted = slugs ? new Set(slugs) : undefined;
  const columns = Object.values(response.metrics).filter((metric) => !wanted || wanted.has(metric.slug));
  const lines = [csvLine(['Timestamp', ...columns.map((metric) => metric.display_name)])];
  for (const period of response.periods) {
    const values = period as unknown as Record<string, number>;
    lines.push(
      csvLine([
        isoformat(new Date(period.timestamp)),
        ...columns.map((metric): CsvValue => {
          const value = values[metric.slug];
          if (value === undefined) return null;
          return metric.type === 'percentage' && Number.isInteger(value) ? `${value}.0` : value;
        }),
      ]),
    );
  }
  return lines;
}
