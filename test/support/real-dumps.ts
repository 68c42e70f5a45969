// The real `uiautomator dump` files copied from public repositories are not part of the project: they live beside the
// checkout, in ../shared/real-dumps (from-project, set-a, set-b, each naming the sources of its files), where CI puts
// them too. Tests and the bench read them from there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REAL_DUMP_SETS = ['from-project', 'set-a', 'set-b'] as const;
export type RealDumpSet = (typeof REAL_DUMP_SETS)[number];

const checkoutRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REAL_DUMPS_FOLDER = path.resolve(checkoutRoot, '../shared/real-dumps');

export interface RealDump {
  set: RealDumpSet;
  /** The file's name without `.xml`. */
  name: string;
  file: string;
}

/** The folder of one set, or an error in plain words that says where the files were looked for and what to do. */
export function realDumpSetFolder(set: RealDumpSet, root = REAL_DUMPS_FOLDER): string {
  const folder = path.join(root, set);
  if (!existsSync(folder)) {
    throw new Error(
      `The real dumps are missing: there is no folder ${folder}. They are not part of the project; put the shared ` +
        `real-dumps folder (${REAL_DUMP_SETS.join(', ')}) at ../shared/real-dumps beside the checkout.`,
    );
  }
  return folder;
}

/** Every real dump of `sets`, in file-name order. */
export function realDumps(sets: readonly RealDumpSet[] = REAL_DUMP_SETS, root = REAL_DUMPS_FOLDER): RealDump[] {
  return sets.flatMap((set) => {
    const folder = realDumpSetFolder(set, root);
    return readdirSync(folder)
      .filter((file) => file.endsWith('.xml'))
      .sort()
      .map((file) => ({ set, name: file.slice(0, -'.xml'.length), file: path.join(folder, file) }));
  });
}

export const readRealDump = (dump: RealDump): string => readFileSync(dump.file, 'utf8');
