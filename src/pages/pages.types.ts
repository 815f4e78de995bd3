import type { Lifecycle, PropertyValue } from './entities/page.entity';

/** A page as an importer hands it over (CONTRACTS: PagesService.upsertImported). */
export interface ImportedPage {
  slug: string;
  title: string;
  content: string;
  properties?: Record<string, PropertyValue>;
  tags?: string[];
  icon?: string | null;
  language?: string | null;
  lifecycle?: Lifecycle;
  groups?: string[];
  variables?: Record<string, string>;
  ownerId?: string | null;
  reviewIntervalDays?: number | null;
  nextReviewAt?: Date | string | null;
  deprecatedTarget?: string | null;
  verified?: boolean;
}

export type ImportOutcome = 'created' | 'replaced' | 'unchanged';

/** What listReviewDue answers (notifications). */
export interface ReviewDuePage {
  id: string;
  slug: string;
  title: string;
  ownerId: string | null;
  nextReviewAt: Date;
}
