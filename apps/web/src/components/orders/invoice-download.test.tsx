// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvoiceDownload, type InvoiceDownloadProps } from './invoice-download';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function setup(props: Partial<InvoiceDownloadProps>) {
  const clicked: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.href);
  });
  const all: InvoiceDownloadProps = {
    isGenerated: false,
    generate: vi.fn(async () => ({})),
    isReady: vi.fn(async () => true),
    link: vi.fn(async () => ({ url: 'http://localhost/v1/storage/download/invoices/o/1.pdf?signature=s' })),
    description: 'No invoice yet.',
    pollIntervalMs: 1,
    pollTimeoutMs: 1000,
    ...props,
  };
  render(<InvoiceDownload {...all} />);
  return { props: all, clicked };
}

describe('InvoiceDownload', () => {
  it('downloads an existing invoice by a fresh link, generating nothing', async () => {
    const { props, clicked } = setup({ isGenerated: true });
    expect(screen.queryByText('No invoice yet.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]).toContain('/v1/storage/download/invoices/o/1.pdf');
    expect(props.generate).not.toHaveBeenCalled();
  });

  it('generates, says so until the order has it, then downloads', async () => {
    let checks = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { props, clicked } = setup({
      isReady: vi.fn(async () => {
        checks += 1;
        if (checks < 3) return false;
        await gate;
        return true;
      }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice' }));
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'The invoice is being generated. The download starts as soon as it is ready.',
    );
    expect(screen.getByRole('button', { name: /Generating invoice/ })).toHaveProperty('disabled', true);
    release();
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(props.generate).toHaveBeenCalledTimes(1);
    expect(checks).toBe(3);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the API error (missing billing details) and downloads nothing', async () => {
    const { NamedAPIError } = await import('@tessera/sdk');
    const error = Object.assign(Object.create(NamedAPIError.prototype), {
      error: 'MissingInvoiceBillingDetails',
      detail: 'Billing name and address are required to generate an invoice for this order.',
      message: 'Billing name and address are required to generate an invoice for this order.',
    });
    const { clicked } = setup({ generate: vi.fn(async () => Promise.reject(error)) });
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('Billing name and address are required'),
    );
    expect(clicked).toEqual([]);
  });

  it('gives up after a while, saying so', async () => {
    const { clicked } = setup({ isReady: vi.fn(async () => false), pollTimeoutMs: 20 });
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('The invoice is taking longer than usual'),
    );
    expect(clicked).toEqual([]);
  });
});
