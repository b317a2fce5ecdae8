/** Opaque pagination cursors are the ids themselves here (WorkOS uses object ids as before/after). */
export function encodeCursor(id: string): string {
  return id;
}
export function decodeCursor(cursor: string | undefined): string | undefined {
  return cursor && /^[A-Za-z0-9_]{1,64}$/.test(cursor) ? cursor : undefined;
}
