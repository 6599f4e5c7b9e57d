import { SEARCH_TEXT_MAX } from '@shared/constants';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

export const SEARCH_PATH = '/search';

/**
 * The navigation bar's search box: sends its words to /search. On /search it shows the search's
 * words, and a new search there keeps the filters and sort. Without JavaScript (before the page
 * hydrates) it is a plain GET form to the same URL.
 */
export function NavSearch({ id, className = '' }: { id: string; className?: string }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const onSearch = pathname === SEARCH_PATH;
  const current = onSearch ? (new URLSearchParams(search).get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const [shown, setShown] = useState(current);
  if (current !== shown) {
    // Another search, back or forward, or another page: the box shows what the URL searches.
    setShown(current);
    setText(current);
  }
  // Words typed before the page hydrated are in the box but not in the state: taken as typed
  // (a slow phone hydrates seconds after the box shows).
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (typed !== text) setText(typed);
  }, []);

  return (
    // A form in the search role, not <search>: browsers before 2023 and jsdom do not know it.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <form
      role="search"
      method="get"
      action={SEARCH_PATH}
      className={`join ${className}`}
      onSubmit={(e) => {
        e.preventDefault();
        const params = new URLSearchParams(onSearch ? search : '');
        // What the box shows: the state, or words typed while it hydrated.
        const q = (input.current?.value ?? text).trim();
        if (q) params.set('q', q);
        else params.delete('q');
        navigate({ pathname: SEARCH_PATH, search: params.size > 0 ? `?${params}` : '' });
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search phones
      </label>
      <input
        ref={input}
        id={id}
        name="q"
        type="search"
        enterKeyHint="search"
        maxLength={SEARCH_TEXT_MAX}
        placeholder="Search phones"
        className="input input-sm join-item w-full min-w-0"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit" className="btn btn-primary btn-sm join-item" aria-label="Search">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-4 w-4 stroke-current"
          fill="none"
          strokeWidth="2.5"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
      </button>
    </form>
  );
}
