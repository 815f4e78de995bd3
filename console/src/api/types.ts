import type { components } from './kb-api';

/**
 * Names for the generated API schemas the console uses (console/src/api/kb-api.d.ts, made by
 * `npm run openapi:types` from kb's own OpenAPI document; `npm test` fails when it is stale).
 */
type Schemas = components['schemas'];

export type Me = Schemas['MeResponse'];
export type Role = Me['role'];
export type PageSummary = Schemas['PageSummaryResponse'];
export type Page = Schemas['PageResponse'];
export type Lifecycle = Page['lifecycle'];
export type PropertyValue = Page['properties'][string];
export type PageLink = Schemas['PageLinkResponse'];
export type TreeNode = Schemas['PageTreeNodeResponse'];
export type Tag = Schemas['TagResponse'];
export type Graph = Schemas['GraphResponse'];
export type SearchHit = Schemas['SearchResultItem'];
export type SearchFacets = Schemas['SearchFacetsResponse'];
export type RevisionSummary = Schemas['RevisionSummaryResponse'];
export type Revision = Schemas['RevisionResponse'];
export type Group = Schemas['GroupResponse'];
export type Draft = Schemas['DraftResponse'];
export type Media = Schemas['MediaResponse'];
export type NotificationItem = Schemas['NotificationResponse'];
export type NotificationPage = Schemas['NotificationList'];
export type AccessToken = Schemas['TokenResponse'];
export type CreatedToken = Schemas['CreatedTokenResponse'];
export type PrintVariable = Schemas['PrintVariableResponse'];
export type FieldProblem = Schemas['FieldProblem'];

/** The shape of every list answer (`{items, nextCursor}`), for code that pages any of them. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}
