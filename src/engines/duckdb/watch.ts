import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';

/**
 * Calls `onPublish` (debounced) when a new file appears at `path`: writers rename into the
 * directory, so the directory is watched, filtered by name and by file identity.
 */
export function watchStoreFile(
  path: string,
  onPublish: () => void,
  debounceMs = 500,
): { close(): void } {
  const target = resolve(path);
  const name = basename(target);
  let identity = '';
  let timer: NodeJS.Timeout | undefined;
  const identify = async () => {
    const info = await stat(target).catch(() => undefined);
    return info ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` : '';
  };
  void identify().then((first) => {
    identity ||= first;
  });
  const fire = async () => {
    const now = await identify();
    if (!now || now === identity) return;
    identity = now;
    onPublish();
  };
  const watcher: FSWatcher = watch(dirname(target), (_event, filename) => {
    if (filename !== null && filename.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(() => void fire(), debounceMs);
    timer.unref();
  });
  watcher.unref();
  watcher.on('error', () => {});
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
