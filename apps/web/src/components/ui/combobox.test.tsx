// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Combobox, type ComboboxOption } from './combobox';
import { Field } from './field';

afterEach(cleanup);

const OPTIONS = [
  { value: 'a', label: 'ada@example.com' },
  { value: 'b', label: 'bob@example.com', description: 'Bob' },
];

function Picker({ onSelect }: { onSelect(option: ComboboxOption): void }) {
  const [text, setText] = useState('');
  return (
    <Field label="Customer">
      <Combobox
        inputValue={text}
        onInputChange={setText}
        options={OPTIONS.filter((option) => option.label.includes(text))}
        onSelect={(option) => {
          setText(option.label);
          onSelect(option);
        }}
      />
    </Field>
  );
}

describe('Combobox', () => {
  it('is labelled by its field and lists the options while typing', async () => {
    render(<Picker onSelect={() => {}} />);
    const input = screen.getByRole('combobox', { name: 'Customer' });
    expect(input.getAttribute('aria-expanded')).toBe('false');
    await userEvent.type(input, 'bob');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['bob@example.comBob']);
  });

  it('picks with the arrow keys and Enter', async () => {
    const onSelect = vi.fn();
    render(<Picker onSelect={onSelect} />);
    const input = screen.getByRole('combobox', { name: 'Customer' });
    await userEvent.click(input);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const active = input.getAttribute('aria-activedescendant');
    expect(document.getElementById(active!)?.textContent).toContain('bob@example.com');
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith(OPTIONS[1]);
    expect((input as HTMLInputElement).value).toBe('bob@example.com');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape and says when nothing matches', async () => {
    render(<Picker onSelect={() => {}} />);
    const input = screen.getByRole('combobox', { name: 'Customer' });
    await userEvent.type(input, 'zed');
    expect(screen.getByRole('listbox').textContent).toBe('No matches.');
    await userEvent.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });
});
