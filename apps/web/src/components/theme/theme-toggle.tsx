import { THEME_PREFERENCES, type ThemePreference } from '../../lib/theme';
import { cn } from '../../lib/cn';

const LABELS: Record<ThemePreference, string> = { light: 'Light', dark: 'Dark', system: 'System' };

/** Light, dark or the system's: three radio buttons shown as one segmented control. */
export function ThemeToggle({
  value,
  onChange,
}: {
  value: ThemePreference;
  onChange: (preference: ThemePreference) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1 text-xs font-medium text-slate-600">Theme</legend>
      <div className="inline-flex rounded-md border border-slate-300 p-0.5">
        {THEME_PREFERENCES.map((preference) => (
          <label
            key={preference}
            className={cn(
              'relative cursor-pointer rounded px-2.5 py-1 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600',
              value === preference ? 'bg-slate-800 text-white' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            <input
              type="radio"
              name="theme"
              value={preference}
              checked={value === preference}
              onChange={() => onChange(preference)}
              className="absolute inset-0 cursor-pointer appearance-none opacity-0"
            />
            {LABELS[preference]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
