/**
 * Response shapes the console reads. TEMPORARY: kb's OpenAPI document does not describe
 * response bodies yet; once it does, these become aliases of the generated schemas
 * (components['schemas'][...]) and this comment goes.
 */
import type { components } from './schema';

/** Generated from the document already. */
export type TreeNode = components['schemas']['PageTreeNodeResponse'];
export type PrintVariable = components['schemas']['PrintVariableResponse'];

export type Role = 'admin' | 'editor' | 'reader';
export type Lifecycle = 'draft' | 'published' | 'in_review' | 'deprecated' | 'archived';
export type PropertyValue = string | number | boolean | null;

export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Me {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  groups: string[];
}

export interface PageSummary {
  slug: string;
  title: string;
  icon: string | null;
  language: string | null;
  tags: string[];
  lifecycle: Lifecycle;
  owner: string | null;
  groups: string[];
  verified: boolean;
  revision: number;
  updatedAt: string;
  updatedBy: string | null;
}

export interface PageLink {
  slug: string;
  title: string;
}

export interface Page extends PageSummary {
  content: string;
  reviewIntervalDays: number | null;
  nextReviewAt: string | null;
  deprecatedTarget: string | null;
  properties: Record<string, PropertyValue>;
  variables: Record<string, string>;
  createdAt: string;
  html: string;
  backlinks: PageLink[];
}

export interface Tag {
  name: string;
  count: number;
}

export interface SearchHit {
  slug: string;
  title: string;
  snippet: string;
  tags: string[];
  updatedAt: string;
}

export interface RevisionSummary {
  id: string;
  revision: number;
  title: string;
  action: string;
  author: string | null;
  createdAt: string;
}

export interface Revision extends RevisionSummary {
  slug: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface Group {
  id: string;
  name: string;
  createdAt: string;
}

export interface Draft {
  key: string;
  title: string | null;
  content: string;
  size: number;
  createdAt: string;
  updatedAt: string;
  [member: string]: unknown;
}

export interface Media {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  url: string;
}

export interface NotificationItem {
  id: string;
  kind: 'page.updated' | 'page.binned' | 'page.review_due' | 'import.finished' | string;
  read: boolean;
  readAt: string | null;
  createdAt: string;
  actor: { id: string; username: string; displayName: string } | null;
  page: { id: string; slug: string; title: string } | null;
  data: Record<string, unknown>;
}

export interface NotificationPage extends ListPage<NotificationItem> {
  unreadCount: number;
}

export interface AccessToken {
  id: string;
  name: string;
  prefix: string;
  scope: Role;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}
