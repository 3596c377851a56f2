import { useState } from 'react';
import { cn } from '../../lib/cn';

/** What a product image needs: its public address and a name for the alt text. */
export interface ProductImage {
  id: string;
  name: string;
  public_url: string;
}

/**
 * A product's images in the seller's order: the first large, the others as thumbnails that replace it.
 * Nothing when the product has none.
 */
export function ProductGallery({
  medias,
  productName,
  className,
}: {
  medias: readonly ProductImage[];
  productName: string;
  className?: string;
}) {
  const [shown, setShown] = useState(0);
  const current = medias[Math.min(shown, medias.length - 1)];
  if (!current) return null;
  return (
    <div className={cn('space-y-2', className)}>
      <img
        src={current.public_url}
        alt={productName}
        className="aspect-[4/3] w-full rounded-lg border border-slate-200 bg-white object-cover"
      />
      {medias.length > 1 && (
        <ul className="flex flex-wrap gap-2" aria-label={`Images of ${productName}`}>
          {medias.map((media, index) => (
            <li key={media.id}>
              <button
                type="button"
                aria-label={`Show image ${index + 1} of ${medias.length}`}
                aria-pressed={index === shown}
                onClick={() => setShown(index)}
                className={cn(
                  'block overflow-hidden rounded border-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
                  index === shown ? 'border-blue-700' : 'border-transparent',
                )}
              >
                <img src={media.public_url} alt="" className="h-12 w-12 object-cover" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
