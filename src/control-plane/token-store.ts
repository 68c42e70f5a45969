import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { issuesSaidNamed } from '../shared/issue-said';
import { say, type Said, type Saying } from '../shared/said';
import { QuotasSchema } from './limits';
import { writePrivateFile } from './private-file';

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
  /** Per-token overrides of the service's rate limit and quotas. */
  rateLimit: z.strictObject({ requestsPerMinute: z.number().positive(), burst: z.number().int().min(1) }).partial().optional(),
  quotas: QuotasSchema.optional(),
});
export type TokenRecord = z.infer<typeof TokenRecordSchema>;

const TokenStoreFileSchema = z.object({ version: z.literal(1), tokens: z.array(TokenRecordSchema) });
type TokenStoreFile = z.infer<typeof TokenStoreFileSchema>;

/** The token store (or its usage counters) cannot be used: its English words, and the code that words them for the reader. */
export class TokenStoreError extends Error {
  override name = 'TokenStoreError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
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
    throw new TokenStoreError(say('controlPlane.tokensUnreadable', { file, systemText: (error as Error).message }));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TokenStoreError(say('controlPlane.tokensNotJson', { file, systemText: (error as Error).message }));
  }
  const parsed = TokenStoreFileSchema.safeParse(json);
  if (!parsed.success) {
    const nameOf = (field: string) => field || '(root)';
    const issues = parsed.error.issues.map((i) => `${nameOf(i.path.join('.'))}: ${i.message}`).join('; ');
    throw new TokenStoreError({
      text: `tokens file ${file} is not a valid token store: ${issues}`,
      said: { code: 'controlPlane.tokensInvalid', values: { file, issuesSaid: issuesSaidNamed(parsed.error.issues, nameOf) } },
    });
  }
  return parsed.data;
}

function writeStore(file: string, store: TokenStoreFile): Promise<void> {
  return writePrivateFile(file, `${JSON.stringify(store, null, 2)}\n`);
}

export type NewTokenOptions = Partial<Pick<TokenRecord, 'name' | 'provider' | 'model' | 'rateLimit' | 'quotas'>>;

export interface CreatedToken {
  /** `amc_<id>_<secret>`, shown once. */
  token: string;
  record: TokenRecord;
}

/** A new token with an id not yet taken; only the secret's hash goes into the record. */
export function mintToken(idTaken: (id: string) => boolean, options: NewTokenOptions = {}): CreatedToken {
  let id = randomBytes(8).toString('hex');
  while (idTaken(id)) id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const record: TokenRecord = {
    id,
    name: options.name ?? `host-${id.slice(0, 6)}`,
    hash: hashSecret(secret),
    createdAt: new Date().toISOString(),
    revokedAt: null,
    ...(options.provider ? { provider: options.provider } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
  };
  return { token: `amc_${id}_${secret}`, record };
}

/** Finds a token by id, or by name when exactly one token has it. */
export function findToken(tokens: readonly TokenRecord[], idOrName: string, where: string): TokenRecord {
  const byId = tokens.find((t) => t.id === idOrName);
  if (byId) return byId;
  const byName = tokens.filter((t) => t.name === idOrName);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw new TokenStoreError(say('controlPlane.tokenNameShared', { tokens: byName.length, name: idOrName, where }));
  throw new TokenStoreError(say('controlPlane.noSuchToken', { name: idOrName, where }));
}

/** Creates a token and returns it in clear exactly once; only its hash is stored. */
export async function createToken(file: string, options: NewTokenOptions = {}): Promise<CreatedToken> {
  const store = await readStore(file);
  const created = mintToken((id) => store.tokens.some((t) => t.id === id), options);
  await writeStore(file, { version: 1, tokens: [...store.tokens, created.record] });
  return created;
}

/** Disables a token (by id or unique name); it then gets 403. Revoking twice keeps the first revocation time. */
export async function revokeToken(file: string, idOrName: string): Promise<TokenRecord> {
  const store = await readStore(file);
  const record = findToken(store.tokens, idOrName, file);
  record.revokedAt ??= new Date().toISOString();
  await writeStore(file, store);
  return record;
}

export async function listTokens(file: string): Promise<TokenRecord[]> {
  return (await readStore(file)).tokens;
}

/** Where tokens are managed (`amc control-plane token ...`): the tokens file or Redis. */
export interface TokenAdmin {
  /** Shown to people: the file's path or the Redis server (without its password). */
  readonly where: string;
  create(options?: NewTokenOptions): Promise<CreatedToken>;
  revoke(idOrName: string): Promise<TokenRecord>;
  list(): Promise<TokenRecord[]>;
  close(): Promise<void>;
}

export function fileTokenAdmin(file: string): TokenAdmin {
  return {
    where: file,
    create: (options) => createToken(file, options),
    revoke: (idOrName) => revokeToken(file, idOrName),
    list: () => listTokens(file),
    close: async () => undefined,
  };
}

export type TokenCheck =
  | { ok: true; record: TokenRecord }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'mismatch' | 'revoked'; tokenId?: string }
  /** The store cannot be reached and the token was not verified recently: refused (fail closed). */
  | { ok: false; reason: 'unavailable'; tokenId?: string; detail: string };

/** Checks bearer headers for the service; the file verifier and the Redis verifier both do. */
export interface BearerVerifier {
  verify(authorization: string | undefined): Promise<TokenCheck>;
}

/** The hash compared against when the id is unknown, so that path costs the same as a wrong secret. */
const DECOY_HASH = hashSecret('decoy');

export type PresentedToken = { id: string; secret: string };

/** Splits `Bearer amc_<id>_<secret>`; a failed check when the header is missing or not shaped like a token. */
export function parseBearer(authorization: string | undefined): PresentedToken | TokenCheck {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return { ok: false, reason: 'missing' };
  const parts = TOKEN_PATTERN.exec(match[1]!);
  if (!parts) return { ok: false, reason: 'malformed' };
  return { id: parts[1]!, secret: parts[2]! };
}

/** Compares the presented secret with the record's hash in constant time, then looks at revocation. */
export function checkPresented(presented: PresentedToken, record: TokenRecord | undefined): TokenCheck {
  const equal = timingSafeEqual(Buffer.from(hashSecret(presented.secret)), Buffer.from(record?.hash ?? DECOY_HASH));
  if (!record) return { ok: false, reason: 'unknown' };
  if (!equal) return { ok: false, reason: 'mismatch', tokenId: presented.id };
  if (record.revokedAt !== null) return { ok: false, reason: 'revoked', tokenId: presented.id };
  return { ok: true, record };
}

/**
 * Checks `Authorization: Bearer ...` headers against the tokens file. The file is re-read when it changes
 * (checked at most every `reloadIntervalMs`), so `amc control-plane token revoke` takes effect on a running service.
 */
export class TokenVerifier implements BearerVerifier {
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
    const presented = parseBearer(authorization);
    if ('ok' in presented) return presented;
    return checkPresented(presented, this.byId.get(presented.id));
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
