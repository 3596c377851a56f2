import * as SelectPrimitive from '@radix-ui/react-select';
import { cn } from '../../lib/cn';

export interface SelectOption {
  value: string;
  label: string;
  /** Shown, not choosable (the label should say why). */
  disabled?: boolean;
}

export interface SelectProps {
  value: string;
  onValueChange(value: string): void;
  options: readonly SelectOption[];
  placeholder?: string;
  id?: string;
  disabled?: boolean;
  className?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-label'?: string;
}

/** A listbox on Radix Select: type-ahead, arrow keys, Escape; labelled by its Field (`id`) or aria-label. */
export function Select({ value, onValueChange, options, placeholder, className, ...props }: SelectProps) {
  return (
    <SelectPrimitive.Root value={value} onValueChange={onValueChange} disabled={props.disabled}>
      <SelectPrimitive.Trigger
        id={props.id}
        aria-label={props['aria-label']}
        aria-invalid={props['aria-invalid']}
        aria-describedby={props['aria-describedby']}
        className={cn(
          // Locked (disabled): greyed with a not-allowed cursor and no chevron, so it does not look choosable.
          'flex h-10 w-full items-center justify-between gap-2 rounded-md border bg-white px-3 text-left text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600 data-[placeholder]:text-slate-500',
          props['aria-invalid'] ? 'border-red-600' : 'border-slate-300',
          className,
        )}
      >
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon aria-hidden className={cn('text-slate-600', props.disabled && 'invisible')}>
          ▾
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-slate-200 bg-white shadow-lg"
        >
          <SelectPrimitive.Viewport className="p-1">
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                className="cursor-default rounded px-2 py-1.5 text-sm text-slate-900 outline-none select-none data-[disabled]:text-slate-600 data-[highlighted]:bg-blue-50 data-[highlighted]:text-blue-900 data-[state=checked]:font-semibold"
              >
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
