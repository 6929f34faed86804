# Finance data API: read-only JSON API over a DuckDB store mounted read-only.
#
#   docker build -t finance-api .
#   docker run --init --rm -p 8000:8000 -v "$PWD/data:/data:ro" finance-api
#
# Mount the store's DIRECTORY, not the file: build-db and the token CLI publish a new store
# by renaming a new file over the old one, and the server follows the directory to swap to it.
# Steps below are the ones the test suite exercises (see docs/deployment.md, "Docker"):
# the server command is the one test/ops/shutdown.test.ts starts and signals, the HEALTHCHECK
# command is the one test/ops/docker-image.test.ts runs against a live server.

ARG NODE_IMAGE=node:22-bookworm-slim

# Production dependencies (tsx among them: the server runs the TypeScript sources), with the
# optional per-platform packages (DuckDB's native binary comes from one: never --omit=optional). `npm ci` needs every platform's optional
# package in the lock; where the registry mirror lacks them it refuses, so `npm install`
# (which honours the lock for what it holds) is used.
#
# NPM_EXTRA_CA_CERTS (optional): PEM certificates npm must trust besides Node's own to reach
# the registry, for builds behind a proxy that re-signs HTTPS (scripts/docker-smoke.sh passes
# the machine's local certificate authorities).
# Used by this stage's install only and removed in the same step; the runtime stage below
# declares no such argument, so nothing of it reaches the published image.
FROM ${NODE_IMAGE} AS deps
ARG NPM_EXTRA_CA_CERTS=""
WORKDIR /app
COPY package.json package-lock.json ./
RUN if [ -n "$NPM_EXTRA_CA_CERTS" ]; then \
      printf '%s\n' "$NPM_EXTRA_CA_CERTS" > /tmp/npm-ca.pem \
      && export NODE_EXTRA_CA_CERTS=/tmp/npm-ca.pem; \
    fi \
 && npm install --omit=dev --no-audit --no-fund \
 && npm cache clean --force \
 && rm -f /tmp/npm-ca.pem

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_PATH=/data/finance.duckdb \
    UV_THREADPOOL_SIZE=8 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
# The operator CLIs, run from the same image against a writable mount (see docs/deployment.md):
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD/data:/data" finance-api npm run token -- --user ID
COPY scripts/build-db.ts scripts/token.ts ./scripts/
# The store's folder: the server only reads it (mount it :ro); the operator CLIs above, run
# on a writable mount, publish new stores into it.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# The image's own `node` user (uid 1000): no root at run time.
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const tls=!!process.env.TLS_CERT_FILE;require(tls?'node:https':'node:http').get({host:'127.0.0.1',port:process.env.PORT||8000,path:'/healthz',rejectUnauthorized:false,timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))"]
# Exec form, node itself as PID 1 (run with --init to reap zombies): SIGTERM reaches the
# server, which drains in-flight requests and exits 0 within SHUTDOWN_GRACE_MS (8 s by
# default, under Docker's 10 s stop timeout). SIGHUP reopens the store.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "src/main.ts"]
