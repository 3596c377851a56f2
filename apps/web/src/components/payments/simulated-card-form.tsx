import { Field } from '../ui/field';
import { Input } from '../ui/input';
import {
  brandName,
  cardDigits,
  detectCardBrand,
  formatCardNumber,
  formatExpiry,
  type CardEntry,
} from '../../lib/payments/card';

export interface SimulatedCardFormProps {
  card: CardEntry;
  errorFor(field: string): string | undefined;
  onChange(card: CardEntry): void;
}

/**
 * The card form of the simulated processor (the default outside production). Stripe's test cards
 * behave as they do at Stripe; the card becomes a confirmation token when the buyer pays.
 */
export function SimulatedCardForm({ card, errorFor, onChange }: SimulatedCardFormProps) {
  const brand = brandName(detectCardBrand(cardDigits(card.number)));
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-sm font-semibold text-slate-900">Card details</legend>
      <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950">
        Test mode: no real payment is taken. Use 4242 4242 4242 4242 to pay, 4000 0000 0000 0002 to see a declined card,
        or 4000 0025 0000 3155 for your bank’s security check, with any future expiry date and any three-digit code.
      </p>
      <Field label="Card number" hint={brand || undefined} error={errorFor('card.number')}>
        <Input
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={card.number}
          onChange={(event) => onChange({ ...card, number: formatCardNumber(event.target.value) })}
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field label="Expiry date" error={errorFor('card.expiry')}>
          <Input
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={card.expiry}
            onChange={(event) => onChange({ ...card, expiry: formatExpiry(event.target.value) })}
          />
        </Field>
        <Field label="Security code" error={errorFor('card.cvc')}>
          <Input
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            maxLength={4}
            value={card.cvc}
            onChange={(event) => onChange({ ...card, cvc: cardDigits(event.target.value) })}
          />
        </Field>
      </div>
    </fieldset>
  );
}
