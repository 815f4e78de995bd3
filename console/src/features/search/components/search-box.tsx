import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/slugs';

/** The header's search field; submitting opens the ranked results. */
export function SearchBox() {
  const [params] = useSearchParams();
  const location = useLocation();
  const onSearch = location.pathname === '/search';
  const current = onSearch ? (params.get('q') ?? '') : '';
  const [value, setValue] = useState(current);
  const navigate = useNavigate();

  useEffect(() => setValue(current), [current]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = value.trim();
    if (q) navigate(paths.search(q));
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
        onChange={(e) => setValue(e.target.value)}
      />
    </form>
  );
}
