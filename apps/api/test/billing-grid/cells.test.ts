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
  TRIAL_EVERY,
  TRIALS,
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
  ['trial', TRIALS],
];

describe('the grid', () => {
  it('holds every valid combination of the axes, and the full grid samples at least 1,000 of them', () => {
    const cells = allCells();
    const plain = cells.filter((cell) => cell.trial === 'none');
    expect(plain.length).toBe(5474 * TAXES.length);
    // Trials with a card take every other axis; card-less ones only a card that works (there is none to decline).
    const paid = plain.filter((cell) => cell.payment === 'paid').length;
    expect(cells.length).toBe(plain.length * 3 + paid * 3);
    expect(FULL_GRID_SIZE).toBeGreaterThanOrEqual(1000);
    expect(new Set(gridCells(FULL_GRID_SIZE).map(cellName)).size).toBe(FULL_GRID_SIZE);
  });

  it('keeps the cells it had before trials, in their order, with a trial cell every TRIAL_EVERY-th place', () => {
    const grid = gridCells(FULL_GRID_SIZE);
    grid.forEach((cell, i) =>
      expect(cell.trial !== 'none', `${i} ${cellName(cell)}`).toBe(i % TRIAL_EVERY === TRIAL_EVERY - 1),
    );
    // The head of the grid before its trial axis (cells named without a trial suffix).
    expect(
      grid
        .filter((cell) => cell.trial === 'none')
        .slice(0, 3)
        .map(cellName),
    ).toEqual([
      'year/30/forever-percentage/upgrade-invoice/recovered/renews/tax-fr-20',
      'year/1/once-fixed/downgrade-prorate/paid/uncancel',
      'year/29/once-percentage/interval/paid/renews',
    ]);
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
      // A trial that ends unpaid, canceled or revoked bills nothing: that is what its cell checks; one whose
      // first charge is never paid has that one order.
      const billsNothing =
        cell.trial !== 'none' && (cell.trial.endsWith('cardless') || cell.end === 'cancel' || cell.end === 'revoke');
      expect(outcome.orders.length, cellName(cell)).toBeGreaterThanOrEqual(
        billsNothing ? 0 : cell.trial !== 'none' ? 1 : 2,
      );
      // A trial revoked during the trial has nothing due after it: its cell checks that nothing happens.
      const revokedTrial = cell.trial !== 'none' && cell.end === 'revoke';
      expect(outcome.dueTimes.length, cellName(cell)).toBeGreaterThanOrEqual(revokedTrial ? 0 : 1);
      expect(scenario.horizon.getTime()).toBeGreaterThan(scenario.start.getTime());
      for (const action of scenario.actions) expect(action.at.getTime()).toBeLessThan(scenario.horizon.getTime());
    }
  });
});
