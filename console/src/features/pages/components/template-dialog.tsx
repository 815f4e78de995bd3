import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { isProblem } from '../../../api/problem';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { PageHtml } from '../../../components/page-html';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { paths } from '../../../lib/slugs';
import {
  useCreateFromTemplate,
  useTemplatePreview,
  useTemplates,
  type PageTemplate,
} from '../api/templates';

/** A slug suggested from a title: lowercase words joined by `-`. */
function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * "Choose a template": the templates by name with a preview of the one selected, then the
 * new page's title and slug and the template's prompted fields. Creates the page (the server
 * fills `{{date}}`, `{{author}}`, `{{title}}` and the fields, and applies the presets) and
 * opens it.
 */
export function TemplateDialog({ onClose }: { onClose: () => void }) {
  const templates = useTemplates();
  const [chosen, setChosen] = useState<string | null>(null);
  const items = templates.data?.items ?? [];
  const template = items.find((t) => t.name === chosen) ?? items[0] ?? null;

  return (
    <Dialog title="Choose a template" onClose={onClose} className="dialog--wide">
      {templates.isPending ? (
        <div className="dialog__body">
          <Spinner />
        </div>
      ) : templates.error ? (
        <div className="dialog__body">
          <ProblemMessage error={templates.error} />
        </div>
      ) : items.length === 0 ? (
        <>
          <p className="dialog__description">No templates yet.</p>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <div className="templates">
          <fieldset className="templates__list">
            <legend className="visually-hidden">Templates</legend>
            {items.map((t) => (
              <label key={t.name} className="templates__item">
                <input
                  type="radio"
                  name="template"
                  value={t.name}
                  checked={template?.name === t.name}
                  onChange={() => setChosen(t.name)}
                />
                <span>
                  <span className="templates__name">{t.title}</span>
                  {t.description && <span className="templates__about">{t.description}</span>}
                </span>
              </label>
            ))}
          </fieldset>
          {template && <TemplateForm key={template.name} template={template} onClose={onClose} />}
        </div>
      )}
    </Dialog>
  );
}

function TemplateForm({ template, onClose }: { template: PageTemplate; onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const preview = useTemplatePreview(template);
  const create = useCreateFromTemplate();
  const navigate = useNavigate();
  const problem = isProblem(create.error) ? create.error : null;
  const shownSlug = slugEdited ? slug : slugOf(title);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filled = Object.fromEntries(template.fields.map((f) => [f.name, values[f.name] ?? '']));
    create.mutate(
      { template: template.name, slug: shownSlug, title, values: filled },
      {
        onSuccess: (page) => {
          onClose();
          navigate(paths.page(page.slug));
        },
      },
    );
  };

  const handled = ['title', 'slug', ...template.fields.map((f) => `values.${f.name}`)];
  // Field problems show next to their fields; anything else (a taken slug: 409) below them.
  const shownByFields =
    problem !== null &&
    problem.errors.length > 0 &&
    problem.errors.every((e) => handled.includes(e.field));
  const other = shownByFields ? null : create.error;
  return (
    <>
      <section className="templates__preview" aria-label={`Preview of ${template.title}`}>
        {preview.data ? <PageHtml html={preview.data.html} /> : <Spinner />}
      </section>
      <form className="dialog__body templates__form" onSubmit={submit} noValidate>
        <Field label="Title" errors={problem?.errorsFor('title') ?? []}>
          <input
            className="input"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
          />
        </Field>
        <Field label="Slug" errors={problem?.errorsFor('slug') ?? []}>
          <input
            className="input"
            value={shownSlug}
            onChange={(e) => {
              setSlugEdited(true);
              setSlug(e.target.value);
            }}
            required
            spellCheck={false}
            autoCapitalize="off"
          />
        </Field>
        {template.fields.map((field) => (
          <Field
            key={field.name}
            label={field.label}
            errors={problem?.errorsFor(`values.${field.name}`) ?? []}
          >
            <input
              className="input"
              value={values[field.name] ?? ''}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
            />
          </Field>
        ))}
        {other != null && <ProblemMessage error={other} />}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={create.isPending || title.trim() === '' || shownSlug === ''}
            aria-busy={create.isPending}
          >
            Create page
          </button>
        </div>
      </form>
    </>
  );
}

export default TemplateDialog;
