// @vitest-environment happy-dom
import type { FileRead } from '@tessera/sdk';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileCreateBody, PutPart, UploadApi } from '../../lib/uploads/upload-task';
import { FileUploader, IMAGE_TYPES } from './file-uploader';

afterEach(cleanup);

function fakeApi(): UploadApi<FileRead> {
  return {
    create: vi.fn(async (body: FileCreateBody) => ({
      id: 'file-1',
      upload: {
        id: 'upload-1',
        path: 'p',
        parts: body.upload.parts.map((part) => ({ ...part, url: `/part/${part.number}`, headers: {} })),
      },
    })),
    complete: vi.fn(async (id: string) => ({ id, name: 'cover.png' }) as unknown as FileRead),
  };
}

describe('FileUploader', () => {
  it('uploads the chosen file and hands it over', async () => {
    const api = fakeApi();
    const putPart: PutPart = vi.fn(async ({ body, onProgress }) => {
      onProgress(body.size);
      return { etag: '"e1"' };
    });
    const onUploaded = vi.fn();
    render(
      <FileUploader
        service="product_media"
        organizationId="org-1"
        label="Product images"
        accept={IMAGE_TYPES}
        onUploaded={onUploaded}
        api={api}
        putPart={putPart}
      />,
    );
    expect(screen.getByRole('group', { name: 'Product images' })).toBeTruthy();
    await userEvent.upload(
      screen.getByLabelText('Product images', { selector: 'input' }),
      new File(['png'], 'cover.png', { type: 'image/png' }),
    );
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith({ id: 'file-1', name: 'cover.png' }));
    expect(screen.getByRole('status').textContent).toBe('cover.png uploaded.');
    expect(api.create).toHaveBeenCalledWith(
      expect.objectContaining({ service: 'product_media', organization_id: 'org-1' }),
    );
  });

  it('refuses a file over the limit before sending anything', async () => {
    const api = fakeApi();
    render(
      <FileUploader
        service="organization_avatar"
        organizationId="o"
        label="Logo"
        maxBytes={2}
        onUploaded={vi.fn()}
        api={api}
      />,
    );
    await userEvent.upload(
      screen.getByLabelText('Logo', { selector: 'input' }),
      new File(['abc'], 'big.png', { type: 'image/png' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('big.png is 3 B; the largest accepted is 2 B.'),
    );
    expect(api.create).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Retry big.png' })).toBeNull();
  });

  it('offers Retry after a part fails twice, and finishes when retried', async () => {
    const api = fakeApi();
    let failures = 2;
    const putPart: PutPart = vi.fn(async () => {
      if (failures-- > 0) throw new Error('network');
      return { etag: '"e1"' };
    });
    const onUploaded = vi.fn();
    render(
      <FileUploader
        service="downloadable"
        organizationId="o"
        label="Files"
        onUploaded={onUploaded}
        api={api}
        putPart={putPart}
      />,
    );
    await userEvent.upload(screen.getByLabelText('Files', { selector: 'input' }), new File(['zip'], 'book.zip'));
    const retry = await screen.findByRole('button', { name: 'Retry book.zip' });
    expect(screen.getByText('Part 1 could not be sent.')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Upload of book.zip' }).getAttribute('aria-valuenow')).toBe('0');
    await userEvent.click(retry);
    await waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1));
    expect(putPart).toHaveBeenCalledTimes(3);
  });
});
