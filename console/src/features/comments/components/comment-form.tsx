import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { ProblemMessage } from '../../../components/problem-message';
import { useDebounced } from '../../../components/use-debounced';
import { useMentionable } from '../api/comments';
import { mentionAt } from '../model/threads';

interface CommentFormProps {
  slug: string;
  label: string;
  submitLabel: string;
  initial?: string;
  pending: boolean;
  error: unknown;
  onSubmit: (body: string) => void;
  onCancel: () => void;
}

/**
 * A comment being written: Markdown in a text area, with `@` autocomplete of the people who may
 * read the page (arrows to choose, Enter or Tab to take, Escape to close).
 */
export function CommentForm({
  slug,
  label,
  submitLabel,
  initial = '',
  pending,
  error,
  onSubmit,
  onCancel,
}: CommentFormProps) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [body, setBody] = useState(initial);
  const [mention, setMention] = useState<{ query: string; at: number } | null>(null);
  const [active, setActive] = useState(0);
  const query = useDebounced(mention?.query ?? null, 150);
  const candidates = useMentionable(slug, mention ? query : null).data?.items ?? [];
  const open = mention !== null && candidates.length > 0;

  useEffect(() => area.current?.focus(), []);
  useEffect(() => setActive(0), [query]);

  const track = (value: string, caret: number) => {
    setBody(value);
    setMention(mentionAt(value, caret));
  };

  const take = (username: string) => {
    if (!mention || !area.current) return;
    const caret = area.current.selectionStart;
    const next = `${body.slice(0, mention.at)}@${username} ${body.slice(caret)}`;
    setBody(next);
    setMention(null);
    const position = mention.at + username.length + 2;
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(position, position);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((active + step + candidates.length) % candidates.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        take(candidates[active].username);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && body.trim()) {
      event.preventDefault();
      onSubmit(body);
    }
  };

  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (body.trim()) onSubmit(body);
      }}
    >
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="comment-form__input">
        <textarea
          ref={area}
          id={id}
          className="input comment-form__text"
          rows={3}
          value={body}
          maxLength={10_000}
          placeholder="Markdown; @name to mention someone"
          role="combobox"
          aria-expanded={open}
          aria-controls={`${id}-people`}
          aria-autocomplete="list"
          aria-activedescendant={open ? `${id}-person-${active}` : undefined}
          onChange={(event) => track(event.target.value, event.target.selectionStart)}
          onKeyDown={onKeyDown}
          onBlur={() => window.setTimeout(() => setMention(null), 150)}
        />
        {open && (
          <ul className="mentions" role="listbox" id={`${id}-people`} aria-label="People">
            {candidates.map((person, index) => (
              <li
                key={person.username}
                id={`${id}-person-${index}`}
                role="option"
                aria-selected={index === active}
                className="mentions__option"
                onMouseDown={(event) => {
                  event.preventDefault();
                  take(person.username);
                }}
              >
                <strong>@{person.username}</strong> <span>{person.displayName}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ProblemMessage error={error} />
      <div className="comment-form__actions">
        <button type="submit" className="button button--primary" disabled={pending || !body.trim()}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
