import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * Bearer tokens of host agents. A token reads `amc_<id>_<secret>`: the id (public, 16 hex chars) finds the
 * record, the secret (32 random bytes, base64url) is kept only as its SHA-256. A slow hash buys nothing here:
 * the secret is random, not a password, so it cannot be guessed from its hash.
 */
const TOKEN_PATTERN = /^amc_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

const ProviderSchema = z.enum(['anthropic', 'openai']);

export const TokenRecordSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  name: z.string(),
  /** `sha256:<hex>` of the secret part. */
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Per-token overrides of the service's provider and model. */
  provider: ProviderSchema.optional(),
  model: z.string().min(1).optional(),
});
export type TokenRecord = z.infer<typeof TokenRecordSchema>;

const TokenStoreFileSchema = z.object({ version: z.literal(1), tokens: z.array(TokenRecordSchema) });
type TokenStoreFile = z.infer<typeof TokenStoreFileSchema>;

export class TokenStoreError extends Error {
  override name = 'TokenStoreError';
}

function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex')}`;
}

async function readStore(file: string): Promise<TokenStoreFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tokens: [] };
    throw new TokenStoreError(`cannot read tokens file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TokenStoreError(`tokens file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = TokenStoreFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new TokenStoreError(`tokens file ${file} is not a valid token store: ${issues}`);
  }
  return parsed.data;
}

/** Write-then-rename so a crash never leaves half a file; owner-only permissions because it guards access. */
async function writeStore(file: string, store: TokenStoreFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(store, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export interface NewTokenOptions {
  name?: string;
  provider?: TokenRecord['provider'];
  model?: string;
}

/** Creates a token and returns it in clear exactly once; only its hash is stored. */
export async function createToken(file: string, options: NewTokenOptions = {}): Promise<{ token: string; record: TokenRecord }> {
  const store = await readStore(file);
  let id = randomBytes(8).toString('hex');
  while (store.tokens.some((t) => t.id === id)) id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const record: TokenRecord = {
    id,
    name: options.name ?? `host-${id.slice(0, 6)}`,
    hash: hashSecret(secret),
    createdAt: new Date().toISOString(),
    revokedAt: null,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
  };
  await writeStore(file, { version: 1, tokens: [...store.tokens, record] });
  return { token: `amc_${id}_${secret}`, record };
}

/** Disables a token; it then gets 403. Revoking twice keeps the first revocation time. */
export async function revokeToken(file: string, id: string): Promise<TokenRecord> {
  const store = await readStore(file);
  const record = store.tokens.find((t) => t.id === id);
  if (!record) throw new TokenStoreError(`no token with id "${id}" in ${file} (see \`amc control-plane token list\`)`);
  record.revokedAt ??= new Date().toISOString();
  await writeStore(file, store);
  return record;
}

export async function listTokens(file: string): Promise<TokenRecord[]> {
  return (await readStore(file)).tokens;
}

export type TokenCheck =
  | { ok: true; record: TokenRecord }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'mismatch' | 'revoked'; tokenId?: string };

/** The hash compared against when the id is unknown, so that path costs the same as a wrong secret. */
const DECOY_HASH = hashSecret('decoy');

/**
 * Checks `Authorization: Bearer ...` headers against the tokens file. The file is re-read when it changes
 * (checked at most every `reloadIntervalMs`), so `amc control-plane token revoke` takes effect on a running service.
 */
export class TokenVerifier {
  private byId = new Map<string, TokenRecord>();
  private fileVersion = '';
  private checkedAt = Number.NEGATIVE_INFINITY;
  private reloading: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly reloadIntervalMs = 1000,
    private readonly onReloadError: (error: Error) => void = () => undefined,
  ) {}

  /** Loads the file now; throws TokenStoreError if it is invalid (the service refuses to start then). */
  async load(): Promise<void> {
    const version = await this.readFileVersion();
    const store = await readStore(this.file);
    this.byId = new Map(store.tokens.map((t) => [t.id, t]));
    this.fileVersion = version;
    this.checkedAt = performance.now();
  }

  get tokenCount(): number {
    return this.byId.size;
  }

  async verify(authorization: string | undefined): Promise<TokenCheck> {
    await this.refreshIfChanged();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return { ok: false, reason: 'missing' };
    const parts = TOKEN_PATTERN.exec(match[1]!);
    if (!parts) return { ok: false, reason: 'malformed' };
    const [, id, secret] = parts as unknown as [string, string, string];
    const record = this.byId.get(id);
    const presented = Buffer.from(hashSecret(secret));
    const expected = Buffer.from(record?.hash ?? DECOY_HASH);
    const equal = timingSafeEqual(presented, expected);
    if (!record) return { ok: false, reason: 'unknown' };
    if (!equal) return { ok: false, reason: 'mismatch', tokenId: id };
    if (record.revokedAt !== null) return { ok: false, reason: 'revoked', tokenId: id };
    return { ok: true, record };
  }

  // Writes go through rename, so a new inode number alone already reveals a change; mtime and size catch hand edits.
  private async readFileVersion(): Promise<string> {
    const info = await stat(this.file).catch(() => null);
    return info ? `${info.ino}:${info.mtimeMs}:${info.size}` : 'absent';
  }

  private async refreshIfChanged(): Promise<void> {
    if (performance.now() - this.checkedAt < this.reloadIntervalMs) return;
    this.reloading ??= (async () => {
      try {
        if ((await this.readFileVersion()) !== this.fileVersion) await this.load();
        this.checkedAt = performance.now();
      } catch (error) {
        // Keep serving with the tokens we have: a half-edited file must not lock every host out.
        this.checkedAt = performance.now();
        this.onReloadError(error as Error);
      } finally {
        this.reloading = null;
      }
    })();
    await this.reloading;
  }
}
