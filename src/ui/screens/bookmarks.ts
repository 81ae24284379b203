// Bookmarks: a view saved under a name (profile, resource, version, OU, server-side filter, page) and
// opened again from the palette, on its profile and in its unit.
import { findResource } from '../../api/hal/catalog.js';
import type { Bookmark } from '../../config/profiles.js';
import { noticeOf } from '../nav/problems.js';
import type { ScreenContext } from '../nav/screen.js';
import type { Origin } from '../services/connection.js';

/** "prod · tasks@v1 · OU … · filter … · page 3": a bookmark in one line. */
export function describeBookmark(bookmark: Bookmark): string {
  return [
    bookmark.profile,
    `${bookmark.resource}${bookmark.version ? `@${bookmark.version}` : ''}`,
    bookmark.ou ? `OU ${bookmark.ou}` : '',
    bookmark.filter ? `filter ${bookmark.filter}` : '',
    bookmark.page ? `page ${bookmark.page}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A view as a bookmark, in the origin it was read in. */
export function viewBookmark(
  view: { origin: Origin; resource: string; version: string; serverFilter?: string },
  page?: string,
): Bookmark {
  const { profile } = view.origin.connection;
  return {
    ...(profile ? { profile } : {}),
    resource: view.resource,
    version: view.version,
    ...(view.origin.ou ? { ou: view.origin.ou } : {}),
    ...(view.serverFilter ? { filter: view.serverFilter } : {}),
    ...(page ? { page } : {}),
  };
}

/** Asks for a name and saves the bookmark under it. */
export function askBookmarkName(ctx: ScreenContext<unknown>, bookmark: Bookmark): void {
  if (!ctx.services.configPath) return ctx.nav.notify('no config file to keep bookmarks in');
  ctx.nav.open('prompt', {
    title: `bookmark ${describeBookmark(bookmark)} as`,
    input: bookmark.resource,
    hint: 'letters, digits, . - _ · Enter saves · Esc cancels · :bm opens bookmarks',
    submit: (name) => {
      void ctx.services.saveBookmark(name.trim(), bookmark).then(
        () => ctx.nav.notify(`bookmark ${name.trim()} saved (:bm ${name.trim()} opens it)`),
        (error: unknown) => ctx.nav.notify(noticeOf('bookmark not saved', error)),
      );
    },
  });
}

/** Opens a bookmark: its profile first, then its OU, then its list with its filter and page. */
export async function openBookmark(ctx: ScreenContext<unknown>, bookmark: Bookmark): Promise<void> {
  if (bookmark.profile && bookmark.profile !== ctx.services.connection.profile) {
    await ctx.nav.switchProfile(bookmark.profile);
    if (ctx.services.connection.profile !== bookmark.profile) return;
  }
  if (bookmark.ou !== ctx.services.connection.session.ou) ctx.nav.setOu(bookmark.ou);
  const catalog = ctx.services.catalogOf();
  const version = bookmark.version ?? (catalog ? findResource(catalog, bookmark.resource)?.defaultVersion : undefined);
  ctx.nav.open('list', {
    origin: ctx.services.origin(),
    source: {
      kind: 'resource',
      resource: bookmark.resource,
      ...(version ? { version } : {}),
      ...(bookmark.page ? { page: bookmark.page } : {}),
    },
    ...(bookmark.filter ? { serverFilter: bookmark.filter } : {}),
  });
}
