import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import { ConfirmDialog, Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { useBin, usePurge, useRestoreFromBin, type BinItem } from '../api/site';

/**
 * A restore refused with 409 slug_taken: a live page now has the slug. Offers to restore the
 * page under a new slug (prefilled with a free-looking one); that slug may be taken too (409)
 * or break the slug rules (422), which the dialog says and lets the administrator try again.
 */
function SlugTakenDialog({
  item,
  onClose,
  onRestored,
}: {
  item: BinItem;
  onClose: () => void;
  onRestored: (page: { slug: string; title: string }) => void;
}) {
  const restore = useRestoreFromBin();
  const [slug, setSlug] = useState(`${item.slug}-restored`);
  const problems = restore.error instanceof ApiProblem ? restore.error : null;
  const slugErrors = problems?.errorsFor('slug') ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    restore.mutate({ id: item.id, slug }, { onSuccess: onRestored });
  };
  return (
    <Dialog
      title="The slug is taken"
      onClose={onClose}
      description={
        <>
          A live page now uses <code>{item.slug}</code>. Restore “{item.title}” under a new slug, or
          give the live page a new slug first.
        </>
      }
    >
      <form className="dialog__body" onSubmit={submit}>
        <Field
          label="New slug"
          hint="Lower case, words joined by hyphens, folders by slashes."
          errors={slugErrors}
        >
          <input
            className="input"
            required
            autoComplete="off"
            spellCheck={false}
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
          />
        </Field>
        {slugErrors.length === 0 && <ProblemMessage error={restore.error} title="Not restored." />}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <Link className="button" to={paths.edit(item.slug)}>
            Give the live page a new slug
          </Link>
          <button type="submit" className="button button--primary" disabled={restore.isPending}>
            Restore
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function BinRow({
  item,
  onRestore,
  onPurge,
}: {
  item: BinItem;
  onRestore: () => void;
  onPurge: () => void;
}) {
  return (
    <tr>
      <th scope="row">
        {item.title}
        <div className="admin__slug">{item.slug}</div>
      </th>
      <td data-label="Binned by">{item.binnedBy ?? 'Unknown'}</td>
      <td data-label="Binned">{formatDateTime(item.binnedAt)}</td>
      <td data-label="Revision">{item.revision}</td>
      <td className="admin__actions">
        <button
          type="button"
          className="button button--small"
          aria-describedby={`bin-${item.id}`}
          onClick={onRestore}
        >
          Restore
        </button>
        <button
          type="button"
          className="button button--small button--danger-quiet"
          aria-describedby={`bin-${item.id}`}
          onClick={onPurge}
        >
          Purge
        </button>
        <span id={`bin-${item.id}`} className="visually-hidden">
          {item.title}
        </span>
      </td>
    </tr>
  );
}

interface RestoredPage {
  slug: string;
  title: string;
}

/**
 * Restores pages from the bin. A restore refused because a live page took the slug (409)
 * opens the new-slug dialog (`taken`) instead of showing a problem.
 */
function useBinRestore() {
  const restore = useRestoreFromBin();
  const [taken, setTaken] = useState<BinItem | null>(null);
  const [restored, setRestored] = useState<RestoredPage | null>(null);

  const restoreItem = (item: BinItem) => {
    setRestored(null);
    restore.mutate(
      { id: item.id },
      {
        onSuccess: (page) => setRestored({ slug: page.slug, title: page.title }),
        onError: (error) => {
          if (isProblem(error, 409)) setTaken(item);
        },
      },
    );
  };

  const restoredUnderNewSlug = (page: RestoredPage) => {
    setTaken(null);
    setRestored({ slug: page.slug, title: page.title });
  };

  return {
    restoreItem,
    error: isProblem(restore.error, 409) ? null : restore.error,
    restored,
    taken,
    closeTaken: () => setTaken(null),
    restoredUnderNewSlug,
  };
}

export function BinScreen() {
  useDocumentTitle('Bin');
  const bin = useBin();
  const restore = useBinRestore();
  const purge = usePurge();
  const [purging, setPurging] = useState<BinItem | null>(null);
  const { restored, taken } = restore;

  return (
    <section className="screen" aria-labelledby="bin-title">
      <h1 id="bin-title" className="screen__title">
        Bin
      </h1>
      <p className="screen__lead">
        Deleted pages wait here with their revisions. Restore puts one back under its slug (or a new
        one, when a live page took it); Purge deletes it for good.
      </p>
      <p role="status" className="admin__status">
        {restored && (
          <>
            Restored <Link to={paths.page(restored.slug)}>{restored.title}</Link>.
          </>
        )}
      </p>
      <ProblemMessage error={restore.error} title="Not restored." />
      <ProblemMessage error={purge.error} title="Not purged." />
      <ProblemMessage error={bin.error} />
      {bin.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Pages in the bin"
          columns={['Page', 'Binned by', 'Binned', 'Revision']}
          actions
          rows={bin.items}
          rowKey={(item) => item.id}
          empty="The bin is empty."
          renderRow={(item) => (
            <BinRow
              item={item}
              onRestore={() => restore.restoreItem(item)}
              onPurge={() => setPurging(item)}
            />
          )}
        />
      )}
      <LoadMore list={bin} />
      {purging && (
        <ConfirmDialog
          title={`Purge “${purging.title}”?`}
          message="The page and all its revisions are deleted for good. This cannot be undone."
          confirmLabel="Purge for good"
          danger
          busy={purge.isPending}
          onCancel={() => setPurging(null)}
          onConfirm={() => purge.mutate(purging.id, { onSettled: () => setPurging(null) })}
        />
      )}
      {taken && (
        <SlugTakenDialog
          item={taken}
          onClose={restore.closeTaken}
          onRestored={restore.restoredUnderNewSlug}
        />
      )}
    </section>
  );
}

export default BinScreen;
