import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/slugs';
import { useDebounced } from '../../../components/use-debounced';

/** Typing pauses this long before the results follow. */
const TYPING_MS = 300;

/**
 * The header's search field: results follow the typing (debounced; the results screen is
 * replaced, not stacked, in the history), Enter searches at once.
 */
export function SearchBox() {
  const [params] = useSearchParams();
  const location = useLocation();
  const onSearch = location.pathname === '/search';
  const current = onSearch ? (params.get('q') ?? '') : '';
  const [value, setValue] = useState(current);
  const typed = useRef(false);
  const settled = useDebounced(value, TYPING_MS);
  const navigate = useNavigate();

  useEffect(() => {
    if (!typed.current) setValue(current);
  }, [current]);

  useEffect(() => {
    if (!typed.current) return;
    typed.current = false;
    const q = settled.trim();
    if (q && q !== current.trim()) navigate(paths.search(q), { replace: onSearch });
    // Only a settled change of the text searches; navigating elsewhere does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    typed.current = false;
    const q = value.trim();
    if (q) navigate(paths.search(q), { replace: onSearch });
  };

  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="icon search-box__icon">
        <circle cx="11" cy="11" r="6" />
        <path d="m20 20-4.5-4.5" />
      </svg>
      <input
        type="search"
        className="search-box__input"
        aria-label="Search"
        placeholder="Search pages"
        value={value}
        maxLength={256}
        onChange={(e) => {
          typed.current = true;
          setValue(e.target.value);
        }}
      />
    </form>
  );
}
