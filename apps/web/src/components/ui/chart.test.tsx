// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { axisLabelIndexes, BarChart, niceCeiling } from './chart';

afterEach(cleanup);

describe('niceCeiling', () => {
  it.each([
    [0, 1],
    [7, 10],
    [12, 20],
    [2100, 2500],
    [2500, 2500],
    [4001, 5000],
    [9999, 10000],
  ])('%s → %s', (value, expected) => {
    expect(niceCeiling(value)).toBe(expected);
  });
});

describe('axisLabelIndexes', () => {
  it('spaces the labels evenly and always labels the last category', () => {
    expect(axisLabelIndexes(30, 6)).toEqual([4, 9, 14, 19, 24, 29]);
    expect(axisLabelIndexes(3, 6)).toEqual([0, 1, 2]);
    expect(axisLabelIndexes(0, 6)).toEqual([]);
  });
});

describe('BarChart', () => {
  const data = [
    { key: '2026-01-01', label: 'Jan 1', value: 0 },
    { key: '2026-01-02', label: 'Jan 2', value: 2500 },
  ];

  function renderChart() {
    return render(
      <BarChart
        caption="Revenue per day"
        data={data}
        formatValue={(value) => `$${(value / 100).toFixed(2)}`}
        categoryHeader="Day"
        valueHeader="Revenue"
        tableLabel="Revenue per day"
      />,
    );
  }

  it('is a figure named by its caption, its drawing hidden from screen readers', () => {
    const { container } = renderChart();
    expect(screen.getByRole('figure', { name: 'Revenue per day' })).toBeTruthy();
    expect(container.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('gives every value in a data table', () => {
    renderChart();
    const table = screen.getByRole('table', { name: 'Revenue per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['DayRevenue', 'Jan 1$0.00', 'Jan 2$25.00']);
  });

  it('draws a bar only for a value above zero', () => {
    const { container } = renderChart();
    const bars = container.querySelectorAll('rect');
    expect(bars).toHaveLength(1);
    expect(bars[0]!.querySelector('title')?.textContent).toBe('Jan 2: $25.00');
  });
});
