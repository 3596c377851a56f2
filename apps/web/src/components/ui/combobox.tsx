import { useId, useState, type KeyboardEvent } from 'react';
import { cn } from '../../lib/cn';
import { Input } from './input';

export interface ComboboxOption {
  value: string;
  label: string;
  /** A second line (a customer's name under their email, say). */
  description?: string;
}

export interface ComboboxProps {
  /** The text typed; the caller filters `options` by it (often through the API). */
  inputValue: string;
  onInputChange(text: string): void;
  options: readonly ComboboxOption[];
  onSelect(option: ComboboxOption): void;
  placeholder?: string;
  /** Said in the list while options are being fetched. */
  isLoading?: boolean;
  /** Said in the list when no option matches. */
  emptyMessage?: string;
  id?: string;
  className?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * A text field with a list of suggestions (the ARIA 1.2 combobox pattern): arrow keys move through the
 * list, Enter picks, Escape closes it. Labelled by its `Field` through `id`.
 */
export function Combobox({
  inputValue,
  onInputChange,
  options,
  onSelect,
  placeholder,
  isLoading = false,
  emptyMessage = 'No matches.',
  className,
  ...props
}: ComboboxProps) {
  const listId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const activeIndex = active < options.length ? active : -1;
  const optionId = (index: number) => `${listId}-option-${index}`;

  function pick(option: ComboboxOption) {
    onSelect(option);
    setIsOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setIsOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + options.length) % options.length);
    } else if (event.key === 'Enter' && isOpen && activeIndex >= 0) {
      event.preventDefault();
      pick(options[activeIndex]!);
    } else if (event.key === 'Escape' && isOpen) {
      event.preventDefault();
      setIsOpen(false);
      setActive(-1);
    }
  }

  return (
    <div className={cn('relative', className)}>
      <Input
        {...props}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-activedescendant={isOpen && activeIndex >= 0 ? optionId(activeIndex) : undefined}
        value={inputValue}
        placeholder={placeholder}
        onChange={(event) => {
          onInputChange(event.target.value);
          setIsOpen(true);
          setActive(-1);
        }}
        onFocus={() => setIsOpen(true)}
        onBlur={() => setIsOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        hidden={!isOpen}
        className="absolute z-30 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg"
      >
        {options.map((option, index) => (
          <li
            key={option.value}
            id={optionId(index)}
            role="option"
            aria-selected={index === activeIndex}
            // Keeps the focus in the field, so the blur does not close the list before the click lands.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(option)}
            className={cn(
              'cursor-default rounded px-2 py-1.5 text-sm text-slate-900',
              index === activeIndex ? 'bg-blue-50 text-blue-900' : 'hover:bg-slate-100',
            )}
          >
            <span className="block">{option.label}</span>
            {option.description && <span className="block text-xs text-slate-600">{option.description}</span>}
          </li>
        ))}
        {options.length === 0 && (
          <li role="presentation" className="px-2 py-1.5 text-sm text-slate-600">
            {isLoading ? 'Searching…' : emptyMessage}
          </li>
        )}
      </ul>
    </div>
  );
}
