import type { FileRead, ProductMediaFileRead } from '@tessera/sdk';
import { FileUploader, IMAGE_TYPES } from '../../../components/files/file-uploader';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';

/** The API's limit on a product image (files.schemas.ts). */
export const PRODUCT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

/** The list with the item at `index` moved by `step` (−1 up, +1 down); unchanged at the ends. */
export function moveMedia<T>(items: readonly T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export interface ProductMediaFieldsetProps {
  organizationId: string;
  medias: readonly ProductMediaFileRead[];
  onChange(medias: ProductMediaFileRead[]): void;
  error?: string;
}

/** Product images in the order customers see them; the first is the one the checkout shows. */
export function ProductMediaFieldset({ organizationId, medias, onChange, error }: ProductMediaFieldsetProps) {
  function added(file: FileRead) {
    if (file.service !== 'product_media') return;
    onChange([...medias.filter((media) => media.id !== file.id), file]);
  }
  return (
    <Card>
      <CardTitle>Media</CardTitle>
      <div className="space-y-4">
        {medias.length > 0 && (
          <ol className="space-y-2" aria-label="Images of this product">
            {medias.map((media, index) => (
              <li
                key={media.id}
                className="flex flex-wrap items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm"
              >
                <img
                  src={media.public_url}
                  alt={media.name}
                  className="h-14 w-14 shrink-0 rounded border border-slate-200 object-cover"
                />
                <span className="min-w-0 flex-1 truncate">
                  {media.name}
                  <span className="block text-xs text-slate-600">{media.size_readable}</span>
                </span>
                <span className="flex gap-1">
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={index === 0}
                    aria-label={`Move ${media.name} up`}
                    onClick={() => onChange(moveMedia(medias, index, -1))}
                  >
                    ↑
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={index === medias.length - 1}
                    aria-label={`Move ${media.name} down`}
                    onClick={() => onChange(moveMedia(medias, index, 1))}
                  >
                    ↓
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => onChange(medias.filter((item) => item.id !== media.id))}
                  >
                    Remove {media.name}
                  </Button>
                </span>
              </li>
            ))}
          </ol>
        )}
        {error && <p className="text-sm text-red-700">{error}</p>}
        <FileUploader
          service="product_media"
          organizationId={organizationId}
          label="Product images"
          hint="JPEG, PNG, GIF, WebP or SVG, up to 10 MB each. The first image is shown at checkout."
          accept={IMAGE_TYPES}
          maxBytes={PRODUCT_MEDIA_MAX_BYTES}
          multiple
          onUploaded={added}
        />
      </div>
    </Card>
  );
}
