import type { FieldError } from '../../../api/problem';
import { FieldErrors } from '../../../components/field';
import type { Row } from '../model/fields';

interface Props {
  legend: string;
  /** Singular noun for the buttons and labels ("property", "variable"). */
  noun: string;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  errors: FieldError[];
}

/** Name/value pairs (properties, variables) with their field problems. */
export function RowsEditor({ legend, noun, rows, onChange, errors }: Props) {
  const update = (index: number, patch: Partial<Row>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="rows">
      <legend className="field__label">{legend}</legend>
      {rows.map((row, index) => (
        <div className="rows__row" key={index}>
          <input
            className="input"
            aria-label={`${noun} ${index + 1} name`}
            placeholder="name"
            value={row.name}
            onChange={(e) => update(index, { name: e.target.value })}
          />
          <input
            className="input"
            aria-label={`${noun} ${index + 1} value`}
            placeholder="value"
            value={row.value}
            onChange={(e) => update(index, { value: e.target.value })}
          />
          <button
            type="button"
            className="button button--quiet button--small"
            aria-label={`Remove ${noun} ${row.name || index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button--small"
        onClick={() => onChange([...rows, { name: '', value: '' }])}
      >
        Add {noun}
      </button>
      <FieldErrors errors={errors} />
    </fieldset>
  );
}
