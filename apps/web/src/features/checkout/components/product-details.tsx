import type { CheckoutPublic } from '@tessera/sdk';
import { ProductGallery } from '../../../components/files/product-gallery';
import { billingWords } from '../logic/summary';

/** What is being bought: name, description, billing, and the benefits that come with it. */
export function ProductDetails({ checkout }: { checkout: CheckoutPublic }) {
  const { product } = checkout;
  const benefits = product.benefits.filter((benefit) => benefit.description.trim() !== '');
  return (
    <div className="space-y-2">
      {(checkout.organization.branding_settings?.show_product_images ?? true) && (
        <ProductGallery medias={product.medias} productName={product.name} className="mb-4 max-w-md" />
      )}
      <h1 className="text-xl font-semibold text-slate-900">{product.name}</h1>
      <p className="text-sm text-slate-600">{billingWords(product.recurring_interval)}</p>
      {product.description && <p className="text-sm whitespace-pre-line text-slate-700">{product.description}</p>}
      {benefits.length > 0 && (
        <div>
          <h2 className="mt-3 text-sm font-medium text-slate-900">Included</h2>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
            {benefits.map((benefit) => (
              <li key={benefit.id}>{benefit.description}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
