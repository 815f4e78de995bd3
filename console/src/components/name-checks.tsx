/** One checkbox per name; `value` holds the checked names, `onChange` the names after a click. */
export function NameChecks({
  names,
  value,
  onChange,
}: {
  names: string[];
  value: string[];
  onChange: (checked: string[]) => void;
}) {
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((n) => n !== name));
  return (
    <div className="checks">
      {names.map((name) => (
        <label key={name} className="check">
          <input
            type="checkbox"
            checked={value.includes(name)}
            onChange={(e) => toggle(name, e.target.checked)}
          />
          {name}
        </label>
      ))}
    </div>
  );
}
