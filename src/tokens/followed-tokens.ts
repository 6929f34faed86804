/**
 * The token store as a running server sees it: every token held in memory, reloaded whenever
 * the file is replaced (a directory watch, and a poll of the file's identity as a fallback for
 * mounts where watches miss renames), so a minted or revoked token takes effect within a
 * second, without touching the analytics store. A file that cannot be read keeps the tokens
 * read before.
 */
import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { TokenOwner } from '../port/read-port.ts';
import type { StoredToken } from './store.ts';
import { loadTokens } from './token-file.ts';

export interface FollowedTokensOptions {
  /** How often the file's identity is checked, in ms. */
  pollMs?: number;
  onError?: (error: unknown) => void;
  onReload?: (count: number) => void;
  /** Where reading the file would spill (DUCKDB_TEMP_DIRECTORY); default the OS temp folder's. */
  spillBase?: string;
}

export class FollowedTokens {
  private byHash = new Map<string, StoredToken>();
  private identity = '';
  private reloading: Promise<void> = Promise.resolve();
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly path: string,
    private readonly options: FollowedTokensOptions,
  ) {}

  /** Loads the file (none yet: no tokens) and follows it until `close`. */
  static async open(path: string, options: FollowedTokensOptions = {}): Promise<FollowedTokens> {
    const tokens = new FollowedTokens(resolve(path), options);
    await tokens.reload();
    tokens.follow();
    return tokens;
  }

  /** The owner of the live (not revoked) token with this hash; null when there is none. */
  liveOwner(tokenHash: string): TokenOwner | null {
    const token = this.byHash.get(tokenHash);
    if (!token || token.revokedAtMs !== null) return null;
    return { userId: token.userId, expiresAtMs: token.expiresAtMs };
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Reads the file again if it changed since the last read. */
  private reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.reloadNow());
    return this.reloading;
  }

  close(): void {
    this.watcher?.close();
    clearInterval(this.timer);
  }

  private async reloadNow(): Promise<void> {
    const info = await stat(this.path).catch(() => undefined);
    const identity = info ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` : 'absent';
    if (identity === this.identity) return;
    try {
      const tokens = await loadTokens(this.path, this.options.spillBase);
      this.byHash = new Map(tokens.map((token) => [token.tokenHash, token]));
      this.identity = identity;
      this.options.onReload?.(tokens.length);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private follow(): void {
    const name = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), (_event, filename) => {
        if (filename === null || filename.toString() === name) void this.reload();
      });
      this.watcher.unref();
      this.watcher.on('error', () => {});
    } catch {
      // No directory to watch (yet): the poll still notices the file.
    }
    this.timer = setInterval(() => void this.reload(), this.options.pollMs ?? 250);
    this.timer.unref();
  }
}
