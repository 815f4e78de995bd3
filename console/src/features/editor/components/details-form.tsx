import { Field, FieldErrors } from '../../../components/field';
import type { ApiProblem } from '../../../api/problem';
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

/** Every metadata field of a page, each with its field problems from a 422. */
export function DetailsForm({ fields, change, problems, isNew }: Props) {
  const groups = useAssignableGroups();
  const errors = (field: string) => problems?.errorsFor(field) ?? [];
  const available = [
    ...new Set([...(groups.data?.items.map((g) => g.name) ?? []), ...fields.groups]),
  ].sort();
  const toggleGroup = (name: string, on: boolean) =>
    change({ groups: on ? [...fields.groups, name] : fields.groups.filter((g) => g !== name) });

  return (
    <div className="details-grid">
      {!isNew && (
        <Field
          label="Slug"
          hint="Changing it moves the page to the new address."
          errors={errors('slug')}
        >
          <input
            className="input"
            value={fields.slug}
            onChange={(e) => change({ slug: e.target.value })}
          />
        </Field>
      )}
      <Field label="Icon" hint="An emoji or an icon name." errors={errors('icon')}>
        <input
          className="input"
          value={fields.icon}
          maxLength={64}
          onChange={(e) => change({ icon: e.target.value })}
        />
      </Field>
      <Field label="Language" hint="A language tag such as en, de-CH." errors={errors('language')}>
        <input
          className="input"
          value={fields.language}
          onChange={(e) => change({ language: e.target.value })}
        />
      </Field>
      <Field label="Tags" hint="Separated by commas." errors={errors('tags')}>
        <input
          className="input"
          value={fields.tags}
          onChange={(e) => change({ tags: e.target.value })}
        />
      </Field>
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
        <input
          className="input"
          value={fields.deprecatedTarget}
          onChange={(e) => change({ deprecatedTarget: e.target.value })}
        />
      </Field>
      <Field
        label="Owner"
        hint="Username of the person who keeps the page current."
        errors={errors('owner')}
      >
        <input
          className="input"
          value={fields.owner}
          autoComplete="off"
          onChange={(e) => change({ owner: e.target.value })}
        />
      </Field>
      <Field label="Review every (days)" errors={errors('reviewIntervalDays')}>
        <input
          className="input"
          type="number"
          min={1}
          max={3650}
          value={fields.reviewIntervalDays}
          onChange={(e) => change({ reviewIntervalDays: e.target.value })}
        />
      </Field>
      <Field label="Next review" errors={errors('nextReviewAt')}>
        <input
          className="input"
          type="date"
          value={fields.nextReviewDate}
          onChange={(e) => change({ nextReviewDate: e.target.value })}
        />
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
          <div className="checks">
            {available.map((name) => (
              <label key={name} className="check">
                <input
                  type="checkbox"
                  checked={fields.groups.includes(name)}
                  onChange={(e) => toggleGroup(name, e.target.checked)}
                />
                {name}
              </label>
            ))}
          </div>
        )}
        <FieldErrors errors={errors('groups')} />
      </fieldset>
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
