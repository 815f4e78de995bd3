import { useEffect, useId, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { ProblemMessage } from '../../../components/problem-message';
import { paths } from '../../../lib/slugs';
import { useSuggestions } from '../api/suggest';
import { useDebounced } from '../../../components/use-debounced';

/** Whether a key press goes to a field the person is typing in (then `/` is just a slash). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('.cm-editor') !== null
  );
}

/**
 * The quick switcher: Ctrl/Cmd+K anywhere but in the Markdown editor (where it makes a link),
 * or `/` outside a text field, opens "Go to page"; type a title or slug, arrows choose, Enter
 * opens the page.
 */
export function QuickSwitcher() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const target = event.target as HTMLElement | null;
      const modK = (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key === 'k';
      if (modK && target?.closest?.('.cm-editor')) return;
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !typingIn(target);
      if (!modK && !slash) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <SwitcherDialog onClose={() => setOpen(false)} /> : null;
}

function SwitcherDialog({ onClose }: { onClose: () => void }) {
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const navigate = useNavigate();
  const listId = useId();
  const query = useDebounced(q, 120);
  const suggestions = useSuggestions(query);
  const items = q.trim() === '' ? [] : (suggestions.data?.items ?? []);
  const current = Math.min(active, Math.max(items.length - 1, 0));

  const go = (slug: string) => {
    onClose();
    navigate(paths.page(slug));
  };
  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (items[current]) go(items[current].slug);
    }
  };

  return (
    <Dialog title="Go to page" onClose={onClose} className="dialog--switcher">
      <div className="dialog__body switcher">
        <input
          className="input switcher__input"
          role="combobox"
          aria-label="Page title or slug"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length > 0 ? `${listId}-${current}` : undefined}
          autoComplete="off"
          autoFocus
          placeholder="Type a title or a slug"
          value={q}
          maxLength={256}
          onChange={(e) => {
            setQ(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label="Pages" className="switcher__list">
          {items.map((item, index) => (
            <li
              key={item.slug}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              className={`switcher__option ${index === current ? 'switcher__option--active' : ''}`}
              onMouseEnter={() => setActive(index)}
              onClick={() => go(item.slug)}
            >
              <span className="switcher__title">{item.title}</span>
              <span className="switcher__slug">{item.slug}</span>
            </li>
          ))}
        </ul>
        {q.trim() !== '' && !suggestions.isFetching && items.length === 0 && !suggestions.error && (
          <p className="switcher__empty" role="status">
            No page matches “{q.trim()}”.
          </p>
        )}
        <ProblemMessage error={suggestions.error} />
        <p className="switcher__hint">↑ ↓ to choose, Enter to open, Esc to close</p>
      </div>
    </Dialog>
  );
}
