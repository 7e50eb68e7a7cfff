/** Whether a path is Folio Studio's or one of the routes it brings (lower-cased, as compose.ts asks). */
export const isStudioPath = (path: string) =>
  path === '/admin' ||
  path.startsWith('/admin/') ||
  path.startsWith('/_folio/content/') ||
  path.startsWith('/_folio/studio/');
