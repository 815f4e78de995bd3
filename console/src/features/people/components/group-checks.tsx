import { NameChecks } from '../../../components/name-checks';
import { useGroups } from '../api/people';

/** Checkboxes of every group (a fieldset named by `legend`); `value` holds group names. */
export function GroupChecks({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: string[];
  onChange: (groups: string[]) => void;
}) {
  const groups = useGroups();
  const names = groups.data?.items.map((g) => g.name) ?? [];
  return (
    <fieldset className="admin__fieldset">
      <legend className="field__label">{legend}</legend>
      {names.length === 0 ? (
        <p className="field__hint">No groups yet.</p>
      ) : (
        <NameChecks names={names} value={value} onChange={onChange} />
      )}
    </fieldset>
  );
}
