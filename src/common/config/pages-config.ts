import { Env, IntRange, readGroup } from './env-schema';
import type { Env as EnvVars } from './env-values';

const MIB = 1024 * 1024;

/** Page bodies, the editor's drafts, and the page response cache. */
export class PagesConfig {
  @Env('PAGE_MAX_BYTES', 'int') @IntRange(1024, 100 * MIB) maxBytes = 2 * MIB;

  /**
   * DRAFT_MAX_BYTES: the largest page plus the text it started from (an editor keeps both to
   * merge later) and room for the editor's own members; default 2 × PAGE_MAX_BYTES + 0.5 MiB
   * (4.5 MiB, under the 5 MiB JSON body).
   */
  @Env('DRAFT_MAX_BYTES', 'int') @IntRange(1, 200 * MIB) draftMaxBytes!: number;

  /**
   * PAGE_CACHE_MB (default 64; 0 keeps none): memory for serialised page responses kept per
   * process (src/pages/read-path/page-response-cache.ts).
   */
  @Env('PAGE_CACHE_MB', 'int') @IntRange(0, 4096) cacheMb = 64;

  /** PAGE_CACHE_MB in bytes. */
  cacheBytes = 0;
}

export function pagesConfig(env: EnvVars): PagesConfig {
  const pages = readGroup(PagesConfig, env);
  pages.draftMaxBytes ??= 2 * pages.maxBytes + MIB / 2;
  pages.cacheBytes = pages.cacheMb * MIB;
  return pages;
}
