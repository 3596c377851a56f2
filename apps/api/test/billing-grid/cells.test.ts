import { describe, expect, it } from 'vitest';
import {
  CHANGES,
  DISCOUNTS,
  ENDS,
  FULL_GRID_SIZE,
  INTERVALS,
  PAYMENTS,
  SAMPLE_SIZE,
  START_DAYS,
  TAXES,
  allCells,
  cellName,
  gridCells,
  scenarioOf,
  selectedCells,
  type Cell,
} from './cells.js';
import { expectedOutcome } from './model.js';

const axes: [keyof Cell, readonly string[]][] = [
  ['interval', INTERVALS],
  ['startDay', START_DAYS],
  ['discount', DISCOUNTS],
  ['change', CHANGES],
  ['payment', PAYMENTS],
  ['end', ENDS],
  ['tax', TAXES],
];

describe('the grid', () => {
  it('holds every valid combination of the axes, and the full grid samples at least 1,000 of them', () => {
    expect(allCells().length).toBe(5474 * TAXES.length);
    expect(FULL_GRID_SIZE).toBeGreaterThanOrEqual(1000);
    expect(new Set(gridCells(FULL_GRID_SIZE).map(cellName)).size).toBe(FULL_GRID_SIZE);
  });

  it('is the same on every run, and the sample of npm test is the head of the full grid', () => {
    expect(gridCells(FULL_GRID_SIZE).map(cellName)).toEqual(gridCells(FULL_GRID_SIZE).map(cellName));
    expect(selectedCells({ BILLING_GRID: 'full' }).map(cellName)).toEqual(gridCells(FULL_GRID_SIZE).map(cellName));
    expect(selectedCells({}).map(cellName)).toEqual(gridCells(FULL_GRID_SIZE).slice(0, SAMPLE_SIZE).map(cellName));
    expect(SAMPLE_SIZE).toBeGreaterThanOrEqual(300);
  });

  it.each(axes)('the sample covers every value of %s', (axis, values) => {
    const seen = new Set(gridCells(SAMPLE_SIZE).map((cell) => cell[axis]));
    expect([...seen].sort()).toEqual([...values].sort());
  });

  it('every scenario gives the model something to check: orders, due instants, a horizon after the start', () => {
    for (const cell of gridCells(FULL_GRID_SIZE)) {
      const scenario = scenarioOf(cell);
      const outcome = expectedOutcome(scenario);
      expect(outcome.orders.length, cellName(cell)).toBeGreaterThanOrEqual(2);
      expect(outcome.dueTimes.length, cellName(cell)).toBeGreaterThanOrEqual(1);
      expect(scenario.horizon.getTime()).toBeGreaterThan(scenario.start.getTime());
      for (const action of scenario.actions) expect(action.at.getTime()).toBeLessThan(scenario.horizon.getTime());
    }
  });
});
