import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/**
 * Resolves a URL path inside `rootDir` only: anything that escapes it (../, encoded or not) is treated as missing.
 * Unknown paths fall back to index.html so a reload on any in-app path still opens the app.
 */
export async function readStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return undefined;
  }
  const root = path.resolve(rootDir);
  const requested = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (requested !== root && !requested.startsWith(root + path.sep)) return undefined;
  const candidate = (await isFile(requested)) ? requested : path.join(root, 'index.html');
  if (!(await isFile(candidate))) return undefined;
  return {
    body: await readFile(candidate),
    contentType: contentTypes[path.extname(candidate)] ?? 'application/octet-stream',
  };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
