import { shellLine } from './shell-line';

/** `uiautomator dump`: the layout as XML into `file` (`/dev/tty` prints it); perception/ui-hierarchy.ts reads it. */
export const uiautomator = {
  dump: (file: string) => shellLine(['uiautomator', 'dump', file]),
};
