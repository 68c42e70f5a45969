/** Small helpers shared by the apps. */

const AVATAR_COLORS = ['#1A73E8', '#D93025', '#188038', '#E37400', '#9334E6', '#007B83', '#C5221F', '#1967D2'];

/** A stable colour per name, like the letter avatars of Contacts and Messages. */
export function avatarFor(name: string): { letter: string; color: string } {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  return { letter, color: AVATAR_COLORS[hash % AVATAR_COLORS.length] as string };
}

export const twoDigits = (value: number): string => String(value).padStart(2, '0');
