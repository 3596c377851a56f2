// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmptyState } from './empty-state';
import { PagedTable, SearchField, usePage, type ListQuery } from './paged-list';

afterEach(cleanup);

interface Fruit {
  id: string;
  name: string;
  stock: number;
}

type Sorting = 'name' | '-name' | 'stock' | '-stock';
const SORTING: Sorting = 'name';

function loaded(items: Fruit[], totalCount = items.length, maxPage = 1): ListQuery<Fruit> {
  return {
    isPending: false,
    isError: false,
    error: null,
    data: { items, pagination: { total_count: totalCount, max_page: maxPage } },
  };
}

function FruitTable({
  query,
  page = 1,
  showStock = true,
  onPageChange = () => {},
  onSortingChange = () => {},
}: {
  query: ListQuery<Fruit>;
  page?: number;
  showStock?: boolean;
  onPageChange?(page: number): void;
  onSortingChange?(sorting: Sorting): void;
}) {
  return (
    <PagedTable
      query={query}
      loadingLabel="Loading fruit…"
      page={page}
      onPageChange={onPageChange}
      empty={<EmptyState title="No fruit yet" description="Fruit appears here." />}
      label="Fruit"
      sorting={SORTING}
      onSortingChange={onSortingChange}
      columns={[
        { header: 'Name', sortField: 'name', className: 'font-medium', cell: (fruit) => fruit.name },
        showStock && { header: 'Stock', sortField: 'stock', align: 'right', cell: (fruit) => fruit.stock },
        { header: 'Actions', hideHeader: true, cell: (fruit) => <button type="button">Eat {fruit.name}</button> },
      ]}
    />
  );
}

describe('PagedTable', () => {
  it('says what is loading, then an error in words', () => {
    const { rerender } = render(
      <FruitTable query={{ isPending: true, isError: false, error: null, data: undefined }} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading fruit…');
    rerender(
      <FruitTable
        query={{ isPending: false, isError: true, error: new Error('The shop is closed.'), data: undefined }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('The shop is closed.');
  });

  it('shows a row per item under one header per column, leaving out columns set to false', () => {
    render(
      <FruitTable
        query={loaded([
          { id: '1', name: 'Apple', stock: 3 },
          { id: '2', name: 'Pear', stock: 0 },
        ])}
        showStock={false}
      />,
    );
    const table = screen.getByRole('table', { name: 'Fruit' });
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name↑, sort descending', 'Actions']);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Apple', 'Eat Apple'],
      ['Pear', 'Eat Pear'],
    ]);
    expect(screen.getByText('Actions').className).toBe('sr-only');
    expect(screen.getByRole('navigation', { name: 'Fruit pagination' }).textContent).toContain(
      '2 results · page 1 of 1',
    );
  });

  it('right-aligns a column’s header and cells', () => {
    render(<FruitTable query={loaded([{ id: '1', name: 'Apple', stock: 3 }])} />);
    expect(screen.getByRole('cell', { name: '3' }).className).toContain('text-right');
  });

  it('sorts by a column’s field, descending once it is ascending', async () => {
    const onSortingChange = vi.fn();
    render(<FruitTable query={loaded([{ id: '1', name: 'Apple', stock: 3 }])} onSortingChange={onSortingChange} />);
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name.getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(within(name).getByRole('button'));
    await userEvent.click(within(screen.getByRole('columnheader', { name: /Stock/ })).getByRole('button'));
    expect(onSortingChange.mock.calls).toEqual([['-name'], ['stock']]);
  });

  it('shows the empty state for an empty first page', () => {
    render(<FruitTable query={loaded([])} />);
    screen.getByRole('heading', { name: 'No fruit yet' });
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('keeps the pager on an empty page past the first, the way back after its last rows went', async () => {
    const onPageChange = vi.fn();
    render(<FruitTable query={loaded([], 20, 1)} page={2} onPageChange={onPageChange} />);
    expect(screen.queryByRole('heading', { name: 'No fruit yet' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
  });
});

function SearchableList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = usePage(search);
  return (
    <>
      <SearchField label="Search fruit" placeholder="Name" value={search} onChange={setSearch} />
      <p>Page {page}</p>
      <button type="button" onClick={() => setPage(page + 1)}>
        Next
      </button>
    </>
  );
}

describe('SearchField with usePage', () => {
  it('is labelled, and a new search starts again on page 1', async () => {
    render(<SearchableList />);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    screen.getByText('Page 2');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search fruit' }), 'a');
    screen.getByText('Page 1');
  });
});
