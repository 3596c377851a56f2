import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { cn } from '../../../lib/cn';
import {
  MAX_FILTER_DEPTH,
  newClause,
  newGroup,
  OPERATORS,
  type ClauseDraft,
  type Conjunction,
  type GroupDraft,
} from '../logic/meter-definition';

const CONJUNCTIONS: readonly { value: Conjunction; label: string }[] = [
  { value: 'and', label: 'all of' },
  { value: 'or', label: 'any of' },
];

export interface FilterBuilderProps {
  value: GroupDraft;
  onChange(value: GroupDraft): void;
  /** The problem of a field by its path in the API's terms (`filter.clauses.0.property`), if any. */
  errorFor(field: string): string | undefined;
  disabled?: boolean;
}

/**
 * The events a meter counts: conditions on a property (`name`, `source`, `timestamp` or a metadata key)
 * joined by all/any, with nested groups for the other conjunction. Every control is a labelled form
 * control, so the whole builder works from the keyboard.
 */
export function FilterBuilder({ value, onChange, errorFor, disabled }: FilterBuilderProps) {
  return (
    <GroupEditor
      group={value}
      onChange={onChange}
      path="filter"
      label=""
      depth={1}
      errorFor={errorFor}
      disabled={disabled}
    />
  );
}

interface GroupEditorProps {
  group: GroupDraft;
  onChange(group: GroupDraft): void;
  onRemove?(): void;
  /** The group's position in the API's terms (`filter.clauses.2`). */
  path: string;
  /** "2.1": where the group sits, for the labels of its controls ('' for the top). */
  label: string;
  depth: number;
  errorFor(field: string): string | undefined;
  disabled?: boolean;
}

function GroupEditor({ group, onChange, onRemove, path, label, depth, errorFor, disabled }: GroupEditorProps) {
  const name = label ? `group ${label}` : 'the filter';
  const replace = (index: number, node: ClauseDraft | GroupDraft) =>
    onChange({ ...group, clauses: group.clauses.map((current, at) => (at === index ? node : current)) });
  const remove = (index: number) => onChange({ ...group, clauses: group.clauses.filter((_, at) => at !== index) });
  const other: Conjunction = group.conjunction === 'and' ? 'or' : 'and';

  return (
    <fieldset
      className={cn(
        'space-y-3 rounded-md border p-3',
        depth === 1 ? 'border-slate-200 bg-slate-50' : 'border-blue-200 bg-white',
      )}
    >
      <legend className="sr-only">{label ? `Group ${label}` : 'Filter'}</legend>
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
        <span>{depth === 1 ? 'Count events matching' : 'Events matching'}</span>
        <div className="w-28">
          <Select
            aria-label={`Match of ${name}`}
            value={group.conjunction}
            options={CONJUNCTIONS}
            onValueChange={(conjunction) => onChange({ ...group, conjunction: conjunction as Conjunction })}
            disabled={disabled}
          />
        </div>
        <span>these conditions{group.clauses.length === 0 ? ' (none yet: every event)' : ':'}</span>
        {onRemove && (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onRemove} disabled={disabled}>
            Remove group {label}
          </Button>
        )}
      </div>
      {errorFor(path) && <p className="text-sm text-red-700">{errorFor(path)}</p>}
      <ol className="space-y-3">
        {group.clauses.map((node, index) => {
          const at = `${path}.clauses.${index}`;
          const position = label ? `${label}.${index + 1}` : String(index + 1);
          return (
            <li key={node.key}>
              {node.kind === 'group' ? (
                <GroupEditor
                  group={node}
                  onChange={(next) => replace(index, next)}
                  onRemove={() => remove(index)}
                  path={at}
                  label={position}
                  depth={depth + 1}
                  errorFor={errorFor}
                  disabled={disabled}
                />
              ) : (
                <ClauseEditor
                  clause={node}
                  onChange={(next) => replace(index, next)}
                  onRemove={() => remove(index)}
                  path={at}
                  label={position}
                  errorFor={errorFor}
                  disabled={disabled}
                />
              )}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled}
          onClick={() => onChange({ ...group, clauses: [...group.clauses, newClause()] })}
        >
          Add condition{label ? ` to group ${label}` : ''}
        </Button>
        {depth < MAX_FILTER_DEPTH && (
          <Button
            variant="secondary"
            size="sm"
            disabled={disabled}
            onClick={() => onChange({ ...group, clauses: [...group.clauses, newGroup(other)] })}
          >
            Add “{other === 'or' ? 'any of' : 'all of'}” group{label ? ` to group ${label}` : ''}
          </Button>
        )}
      </div>
    </fieldset>
  );
}

interface ClauseEditorProps {
  clause: ClauseDraft;
  onChange(clause: ClauseDraft): void;
  onRemove(): void;
  path: string;
  label: string;
  errorFor(field: string): string | undefined;
  disabled?: boolean;
}

function ClauseEditor({ clause, onChange, onRemove, path, label, errorFor, disabled }: ClauseEditorProps) {
  const set = (patch: Partial<ClauseDraft>) => onChange({ ...clause, ...patch });
  const problems = [
    errorFor(`${path}.property`),
    errorFor(`${path}.operator`),
    errorFor(`${path}.value`),
    errorFor(path),
  ]
    .filter(Boolean)
    .join(' ');
  const problemId = `${clause.key}-problem`;
  return (
    <div className="rounded-md border border-slate-200 bg-white p-2">
      <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_11rem_minmax(0,1fr)_auto] sm:items-center">
        <Input
          aria-label={`Property of condition ${label}`}
          aria-invalid={errorFor(`${path}.property`) ? true : undefined}
          aria-describedby={problems ? problemId : undefined}
          placeholder="name, source or a metadata key"
          value={clause.property}
          disabled={disabled}
          onChange={(event) => set({ property: event.target.value })}
        />
        <Select
          aria-label={`Operator of condition ${label}`}
          value={clause.operator}
          options={OPERATORS}
          disabled={disabled}
          onValueChange={(operator) => set({ operator: operator as ClauseDraft['operator'] })}
        />
        <Input
          aria-label={`Value of condition ${label}`}
          aria-invalid={errorFor(`${path}.value`) ? true : undefined}
          placeholder='api_call, 42, true or "42"'
          value={clause.value}
          disabled={disabled}
          onChange={(event) => set({ value: event.target.value })}
        />
        <Button
          variant="ghost"
          size="sm"
          onClick={onRemove}
          disabled={disabled}
          aria-label={`Remove condition ${label}`}
        >
          Remove
        </Button>
      </div>
      {problems && (
        <p id={problemId} className="mt-1 text-sm text-red-700">
          {problems}
        </p>
      )}
    </div>
  );
}
