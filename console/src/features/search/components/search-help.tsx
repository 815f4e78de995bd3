import { useId, useRef, useState } from 'react';
import { useDismiss } from '../../../components/use-dismiss';

const SYNTAX: [string, string][] = [
  ['rollback guide', 'every word; the last one also as the start of a word'],
  ['"rolling update"', 'these words together, in this order'],
  ['kubernetes -canary', 'without a word (or -"a phrase")'],
  ['blue OR green', 'either word'],
  ['tag:ops', 'pages with a tag (tag:"on call" for spaces)'],
  ['under:runbooks', 'a folder and everything in it'],
  ['owner:alice', 'pages someone owns'],
  ['lifecycle:deprecated', 'draft, published, in_review, deprecated or archived'],
  ['verified:true', 'verified pages'],
  ['lang:de', 'pages in a language'],
  ['updated:>2026-01-01', 'changed after a day (or <, or one day)'],
  ['is:missing-links', 'pages with broken links (editors)'],
];

/** "Search syntax": a popover explaining the query language, with examples. */
export function SearchHelp() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  useDismiss(open, () => setOpen(false), button, [popover]);
  return (
    <div className="search-help">
      <button
        ref={button}
        type="button"
        className="button button--quiet"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        Search syntax
      </button>
      {open && (
        <div
          id={id}
          ref={popover}
          className="search-help__popover"
          role="region"
          aria-label="Search syntax"
        >
          <dl className="search-help__list">
            {SYNTAX.map(([example, meaning]) => (
              <div key={example} className="search-help__row">
                <dt>
                  <code>{example}</code>
                </dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}
