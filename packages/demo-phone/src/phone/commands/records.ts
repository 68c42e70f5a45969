import { USER_APPS } from '../apps/index';

/** The object ids and records that `dumpsys` and `am` print for tasks, activities and windows. */

/** `.Settings` -> `com.android.settings.Settings`. */
export const fullClassName = (pkg: string, activity: string): string => (activity.startsWith('.') ? pkg + activity : activity);

/** A stable, fake object id like the hex hashes dumpsys prints. */
export function objectId(text: string): string {
  let hash = 0x811c9dc5;
  for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0').slice(0, 7);
}

export function taskId(pkg: string): number {
  const index = USER_APPS.findIndex((app) => app.pkg === pkg);
  return index < 0 ? 1 : 20 + index;
}

export function activityRecord(component: string): string {
  const [pkg = ''] = component.split('/');
  return `ActivityRecord{${objectId(component)} u0 ${component} t${taskId(pkg)}}`;
}

export function windowRecord(component: string): string {
  const [pkg = '', activity = ''] = component.split('/');
  return `Window{${objectId('w' + component)} u0 ${pkg}/${fullClassName(pkg, activity)}}`;
}
