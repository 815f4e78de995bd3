import { useEffect } from 'react';

/** The tab's title follows the screen ("Onboarding · kb"), for tabs, history and screen readers. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · kb` : 'kb';
  }, [title]);
}
