// @vitest-environment happy-dom
import type { Meter } from '@tessera/sdk';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '../../../components/ui/button';
import { fakeApi, renderWithQueryClient } from '../../../testing/fake-api';
import { MeterFormDialog } from './meter-form-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORG = '0b5e0c57-6a39-4cf6-9d8c-4c1f2bb8a001';
const ID = '00000000-0000-4000-8000-00000000a001';

const METER: Meter = {
  id: ID,
  organization_id: ORG,
  created_at: '2026-01-15T12:00:00.000Z',
  modified_at: null,
  metadata: {},
  name: 'API calls',
  filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
  aggregation: { func: 'count' },
};

/** Picks an option of a (Radix) select the way a keyboard user does. */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  screen.getByLabelText(label).focus();
  await user.keyboard('{Enter}');
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('MeterFormDialog', () => {
  it('creates a meter with a nested filter and a property aggregation', async () => {
    const user = userEvent.setup();
    const api = fakeApi({ 'POST /v1/meters/': () => ({ status: 201, body: { ...METER, name: 'Tokens' } }) });
    const onCreated = vi.fn();
    renderWithQueryClient(
      <MeterFormDialog
        organizationId={ORG}
        trigger={(open) => <Button onClick={open}>New meter</Button>}
        onCreated={onCreated}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'New meter' }));
    await user.type(screen.getByLabelText('Meter name'), 'Tokens');
    await user.type(screen.getByLabelText('Value of condition 1'), 'completion');
    await user.click(screen.getByRole('button', { name: 'Add “any of” group' }));
    await user.clear(screen.getByLabelText('Property of condition 2.1'));
    await user.type(screen.getByLabelText('Property of condition 2.1'), 'model');
    await choose(user, 'Operator of condition 2.1', 'contains');
    await user.type(screen.getByLabelText('Value of condition 2.1'), 'gpt');
    await user.click(screen.getByRole('button', { name: 'Add condition to group 2' }));
    await user.clear(screen.getByLabelText('Property of condition 2.2'));
    await user.type(screen.getByLabelText('Property of condition 2.2'), 'tier');
    await user.type(screen.getByLabelText('Value of condition 2.2'), '3');
    await choose(user, 'Aggregation', 'Sum of a property');
    await user.type(screen.getByLabelText('Aggregated property'), 'tokens');
    await user.click(screen.getByRole('button', { name: 'Create meter' }));

    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(api.of('POST', '/v1/meters/')[0]!.body).toEqual({
      organization_id: ORG,
      name: 'Tokens',
      filter: {
        conjunction: 'and',
        clauses: [
          { property: 'name', operator: 'eq', value: 'completion' },
          {
            conjunction: 'or',
            clauses: [
              { property: 'model', operator: 'like', value: 'gpt' },
              { property: 'tier', operator: 'eq', value: 3 },
            ],
          },
        ],
      },
      aggregation: { func: 'sum', property: 'tokens' },
    });
  });

  it('checks the form before sending and names the problems next to their fields', async () => {
    const user = userEvent.setup();
    const api = fakeApi({});
    renderWithQueryClient(
      <MeterFormDialog organizationId={ORG} trigger={(open) => <Button onClick={open}>New meter</Button>} />,
    );
    await user.click(screen.getByRole('button', { name: 'New meter' }));
    await user.clear(screen.getByLabelText('Property of condition 1'));
    await choose(user, 'Aggregation', 'Maximum of a property');
    await user.click(screen.getByRole('button', { name: 'Create meter' }));
    screen.getByText('Enter a name of at least 3 characters.');
    screen.getByText('Enter a property: name, source or a metadata key.');
    screen.getByText('Enter the metadata key whose values are aggregated.');
    expect(api.requests).toEqual([]);
  });

  it('says clearly when the API refuses a new filter because the meter already counted usage', async () => {
    const user = userEvent.setup();
    const message = "This field can't be updated because the meter is already aggregating events.";
    const api = fakeApi({
      [`PATCH /v1/meters/${ID}`]: () => ({
        status: 422,
        body: { detail: [{ loc: ['body', 'filter'], msg: message, type: 'forbidden' }] },
      }),
    });
    renderWithQueryClient(
      <MeterFormDialog organizationId={ORG} meter={METER} trigger={(open) => <Button onClick={open}>Edit</Button>} />,
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Value of condition 1') as HTMLInputElement).value).toBe('api_call');
    await user.clear(screen.getByLabelText('Value of condition 1'));
    await user.type(screen.getByLabelText('Value of condition 1'), 'api_request');
    await user.click(screen.getByRole('button', { name: 'Save meter' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('What this meter counts can no longer change');
    expect(alert.textContent).toContain(message);
    expect(api.of('PATCH', `/v1/meters/${ID}`)[0]!.body).toMatchObject({
      name: 'API calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_request' }] },
    });
    // The dialog stays open with the change, so it can be undone or kept for a new meter.
    screen.getByRole('dialog', { name: 'Edit API calls' });
  });
});
