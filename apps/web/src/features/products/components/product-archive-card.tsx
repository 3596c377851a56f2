import type { Product } from '@tessera/sdk';
import { ApiErrorAlert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Card, CardTitle } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { useToast } from '../../../components/ui/toast';
import { useUpdateProduct } from '../api/update-product';

export interface ProductArchiveCardProps {
  product: Product;
  onChange(product: Product): void;
}

/** Archive or unarchive, behind a confirmation that says what changes for customers. */
export function ProductArchiveCard({ product, onChange }: ProductArchiveCardProps) {
  const update = useUpdateProduct();
  const toast = useToast();
  const archive = !product.is_archived;
  const setArchived = () =>
    update.mutate(
      { id: product.id, body: { is_archived: archive } },
      {
        onSuccess: (saved) => {
          toast(archive ? `${saved.name} archived` : `${saved.name} unarchived`);
          onChange(saved);
        },
      },
    );
  return (
    <Card>
      <CardTitle>Availability</CardTitle>
      <div className="space-y-3">
        <ApiErrorAlert error={update.error} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="flex items-center gap-2 text-sm text-slate-700">
            {product.is_archived ? <Badge>Archived</Badge> : <Badge tone="success">Active</Badge>}
            {product.is_archived
              ? 'Not for sale: it cannot be bought and is in no checkout link.'
              : 'For sale through checkouts and checkout links.'}
          </p>
          {archive ? (
            <ConfirmButton
              title={`Archive “${product.name}”?`}
              description="Archived products can no longer be bought and leave every checkout link. Existing subscriptions continue. You can unarchive it later."
              confirmLabel="Archive product"
              isPending={update.isPending}
              onConfirm={setArchived}
            >
              Archive product
            </ConfirmButton>
          ) : (
            <ConfirmButton
              variant="secondary"
              title={`Unarchive “${product.name}”?`}
              description="It can be bought again through new checkouts. Checkout links it was removed from do not get it back: add it to them again if needed."
              confirmLabel="Unarchive product"
              isPending={update.isPending}
              onConfirm={setArchived}
            >
              Unarchive product
            </ConfirmButton>
          )}
        </div>
      </div>
    </Card>
  );
}
