import { useRef, type KeyboardEvent, type RefObject } from 'react';
import { useDismiss } from '../../../components/use-dismiss';
import { saveBlob } from '../../../lib/download';
import { exportPage, exportPdf } from '../../../api/pages';

type Item = { label: string; run: () => void | Promise<void> };

/** Moves focus between a menu's items with the arrow keys, Home and End. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next: Record<string, number> = {
    ArrowDown: (at + 1) % items.length,
    ArrowUp: (at - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  };
  if (!(event.key in next)) return;
  event.preventDefault();
  items[next[event.key]].focus();
}

export interface ExportMenuItemsProps {
  id: string;
  slug: string;
  button: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
  onBusy: (busy: boolean) => void;
  onPrint: () => void;
  onError: (error: unknown) => void;
}

/** The open "Export" menu (a chunk of its own: it loads when the menu first opens). */
export default function ExportMenuItems(props: ExportMenuItemsProps) {
  const { id, slug, button, onClose, onBusy, onError } = props;
  const menu = useRef<HTMLDivElement | null>(null);
  useDismiss(true, onClose, button, [menu]);

  const save = (fetchFile: () => Promise<{ blob: Blob; filename: string }>) => async () => {
    onBusy(true);
    onError(null);
    try {
      const file = await fetchFile();
      saveBlob(file.blob, file.filename);
    } catch (e) {
      onError(e);
    } finally {
      onBusy(false);
    }
  };
  const items: Item[] = [
    { label: 'Markdown', run: save(() => exportPage(slug, 'markdown')) },
    { label: 'ZIP with images', run: save(() => exportPage(slug, 'zip')) },
    { label: 'PDF', run: save(() => exportPdf(slug)) },
    { label: 'Print…', run: props.onPrint },
  ];
  const choose = (item: Item) => {
    onClose();
    button.current?.focus();
    void item.run();
  };
  return (
    <div
      ref={(el) => {
        menu.current = el;
        el?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
      }}
      id={id}
      role="menu"
      aria-label="Export"
      className="popover popover--menu menu"
      onKeyDown={moveFocus}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="user-menu__item"
          onClick={() => choose(item)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
