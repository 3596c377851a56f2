import { describe, expect, it } from 'vitest';
import { eventsRequest, metadataSummary, NO_FILTERS } from './events-query';

const ORG = '00000000-0000-4000-8000-000000000001';

describe('eventsRequest', () => {
  it('sends an empty "all of" filter (every event) when nothing is chosen, newest first', () => {
    expect(eventsRequest(NO_FILTERS, ORG, 2)).toEqual({
      request: {
        organization_id: ORG,
        filter: '{"conjunction":"and","clauses":[]}',
        name: undefined,
        source: undefined,
        customer_id: undefined,
        meter_id: undefined,
        start_timestamp: undefined,
        end_timestamp: undefined,
        sorting: ['-timestamp'],
        page: 2,
        limit: 20,
      },
    });
  });

  it('narrows by every filter; the metadata search is a LIKE clause on its key', () => {
    const result = eventsRequest(
      {
        name: 'api_call',
        source: 'user',
        customerId: 'c',
        meterId: 'm',
        from: '2026-03-01',
        to: '2026-03-02',
        metadataKey: ' region ',
        metadataText: 'eu',
      },
      ORG,
      1,
    );
    expect(result).toMatchObject({
      request: {
        name: 'api_call',
        source: 'user',
        customer_id: 'c',
        meter_id: 'm',
        start_timestamp: '2026-03-01T00:00:00.000Z',
        end_timestamp: '2026-03-02T23:59:59.999Z',
      },
    });
    const filter = 'request' in result ? JSON.parse(result.request.filter ?? 'null') : null;
    expect(filter).toEqual({ conjunction: 'and', clauses: [{ property: 'region', operator: 'like', value: 'eu' }] });
  });

  it('says what is wrong instead of asking', () => {
    expect(eventsRequest({ ...NO_FILTERS, metadataText: 'eu' }, ORG, 1)).toEqual({
      problem: 'Enter the metadata key to search in.',
    });
    expect(eventsRequest({ ...NO_FILTERS, from: '2026-03-02', to: '2026-03-01' }, ORG, 1)).toEqual({
      problem: 'The end day must not be before the start day.',
    });
  });
});

describe('metadataSummary', () => {
  it('shows the first pairs and how many more', () => {
    expect(metadataSummary({})).toBe('—');
    expect(metadataSummary({ region: 'eu', tokens: 120, beta: true, tags: ['a'] })).toBe(
      'region: eu · tokens: 120 · beta: true · +1 more',
    );
  });
});
