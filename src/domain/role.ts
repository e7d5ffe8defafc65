/**
 * What a key may do, each role all that the one before it may (docs/adr/0044):
 * - contributor: drafts of its own author (create, update, delete), tags and categories by name;
 * - author: also publish, schedule and unpublish its author's articles, and delete them;
 * - editor: every article, tag and category; restores; the demo seed;
 * - admin: an editor that also manages keys (API_TOKEN is an admin).
 */
export const ROLES = ['contributor', 'author', 'editor', 'admin'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(text: string): text is Role {
  return (ROLES as readonly string[]).includes(text);
}

/** Whether `role` may do all that `least` may. */
export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}
