import type { ChangeEvent } from 'react';
import { Field, FieldErrors } from '../../../components/field';
import { NameChecks } from '../../../components/name-checks';
import type { ApiProblem, FieldError } from '../../../api/problem';
import type { Lifecycle } from '../../../api/types';
import { LIFECYCLE_LABELS } from '../../../lib/format';
import { useAssignableGroups } from '../api/editor';
import type { PageFields } from '../model/fields';
import { RowsEditor } from './rows-editor';

interface Props {
  fields: PageFields;
  change: (patch: Partial<PageFields>) => void;
  problems: ApiProblem | null;
  isNew: boolean;
}

/** The fields a plain text (or number, or date) input edits. */
type TextKey =
  | 'slug'
  | 'icon'
  | 'language'
  | 'tags'
  | 'deprecatedTarget'
  | 'owner'
  | 'reviewIntervalDays'
  | 'nextReviewDate';

/** An input's value and onChange for one text field of the form. */
const binder =
  ({ fields, change }: Pick<Props, 'fields' | 'change'>) =>
  (key: TextKey) => ({
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => change({ [key]: e.target.value }),
  });

const errorsOf = (problems: ApiProblem | null) => (field: string) =>
  problems?.errorsFor(field) ?? [];

/** Lifecycle, replacement, owner, review schedule and the Verified mark. */
function StewardshipFields({ fields, change, problems }: Omit<Props, 'isNew'>) {
  const bind = binder({ fields, change });
  const errors = errorsOf(problems);
  return (
    <>
      <Field label="Lifecycle" errors={errors('lifecycle')}>
        <select
          className="input"
          value={fields.lifecycle}
          onChange={(e) => change({ lifecycle: e.target.value as Lifecycle })}
        >
          {Object.entries(LIFECYCLE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="Deprecated, see"
        hint="The slug of the page that replaces this one."
        errors={errors('deprecatedTarget')}
      >
        <input className="input" {...bind('deprecatedTarget')} />
      </Field>
      <Field
        label="Owner"
        hint="Username of the person who keeps the page current."
        errors={errors('owner')}
      >
        <input className="input" autoComplete="off" {...bind('owner')} />
      </Field>
      <Field label="Review every (days)" errors={errors('reviewIntervalDays')}>
        <input className="input" type="number" min={1} max={3650} {...bind('reviewIntervalDays')} />
      </Field>
      <Field label="Next review" errors={errors('nextReviewAt')}>
        <input className="input" type="date" {...bind('nextReviewDate')} />
      </Field>
      <div className="field field--checkbox">
        <input
          id="page-verified"
          type="checkbox"
          checked={fields.verified}
          onChange={(e) => change({ verified: e.target.checked })}
        />
        <label htmlFor="page-verified">Verified</label>
        <FieldErrors errors={errors('verified')} />
      </div>
    </>
  );
}

/** The groups that may see the page: those the person may assign, plus any it already has. */
function GroupsFieldset({
  value,
  onChange,
  errors,
}: {
  value: string[];
  onChange: (groups: string[]) => void;
  errors: FieldError[];
}) {
  const groups = useAssignableGroups();
  const available = [...new Set([...(groups.data?.items.map((g) => g.name) ?? []), ...value])];
  available.sort();
  return (
    <fieldset className="field field--wide">
      <legend className="field__label">Groups</legend>
      <p className="field__hint">
        Only members of the chosen groups see the page; none: everyone signed in.
      </p>
      {available.length === 0 ? (
        <p className="field__hint">
          {groups.isPending ? 'Loading groups…' : 'No groups you can assign.'}
        </p>
      ) : (
        <NameChecks names={available} value={value} onChange={onChange} />
      )}
      <FieldErrors errors={errors} />
    </fieldset>
  );
}

/** Every metadata field of a page, each with its field problems from a 422. */
export function DetailsForm({ fields, change, problems, isNew }: Props) {
  const bind = binder({ fields, change });
  const errors = errorsOf(problems);
  return (
    <div className="details-grid">
      {!isNew && (
        <Field
          label="Slug"
          hint="Changing it moves the page to the new address."
          errors={errors('slug')}
        >
          <input className="input" {...bind('slug')} />
        </Field>
      )}
      <Field label="Icon" hint="An emoji or an icon name." errors={errors('icon')}>
        <input className="input" maxLength={64} {...bind('icon')} />
      </Field>
      <Field label="Language" hint="A language tag such as en, de-CH." errors={errors('language')}>
        <input className="input" {...bind('language')} />
      </Field>
      <Field label="Tags" hint="Separated by commas." errors={errors('tags')}>
        <input className="input" {...bind('tags')} />
      </Field>
      <StewardshipFields fields={fields} change={change} problems={problems} />
      <GroupsFieldset
        value={fields.groups}
        onChange={(groups) => change({ groups })}
        errors={errors('groups')}
      />
      <div className="field--wide">
        <RowsEditor
          legend="Properties"
          noun="property"
          rows={fields.properties}
          onChange={(properties) => change({ properties })}
          errors={errors('properties')}
        />
      </div>
      <div className="field--wide">
        <RowsEditor
          legend="Variables"
          noun="variable"
          rows={fields.variables}
          onChange={(variables) => change({ variables })}
          errors={errors('variables')}
        />
      </div>
    </div>
  );
}
