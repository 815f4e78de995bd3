import { useEffect, type RefObject } from 'react';

/**
 * Closes an open popover or drawer on Escape (focus goes back to its button) and, when `inside`
 * is given, on a pointer press outside those elements.
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  button: RefObject<HTMLElement | null>,
  inside: RefObject<HTMLElement | null>[] = [],
): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (![button, ...inside].some((ref) => ref.current?.contains(target))) close();
    };
    document.addEventListener('keydown', onKey);
    if (inside.length) document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
    // `close` and the refs are stable for the life of the component that owns them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
