#!/usr/bin/env bash
# The Docker engine and the image the Docker runner's tests run in, from nothing: Debian's
# docker.io and debootstrap installed when missing, dockerd started when no engine answers, and
# the image (a bookworm minbase made by debootstrap and imported, with Debian's python3, pytest
# and the libraries the shared instances' tests import) built unless it exists.
# --rebuild builds it again from nothing. The image's name: $SCHRODINGER_TEST_IMAGE, else below.
set -euo pipefail
IMAGE="${SCHRODINGER_TEST_IMAGE:-schrodinger-test:bookworm}"
rebuild=0
case "${1:-}" in
  --rebuild) rebuild=1 ;;
  "") ;;
  *) echo "usage: $0 [--rebuild]" >&2; exit 2 ;;
esac

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io debootstrap >/dev/null
fi
if ! docker version >/dev/null 2>&1; then
  nohup dockerd >/var/log/schrodinger-dockerd.log 2>&1 &
  for _ in $(seq 60); do docker version >/dev/null 2>&1 && break; sleep 0.5; done
  docker version >/dev/null 2>&1 || { echo "dockerd did not start: /var/log/schrodinger-dockerd.log" >&2; tail -5 /var/log/schrodinger-dockerd.log >&2; exit 1; }
fi
if [ "$rebuild" = 0 ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "image $IMAGE exists (--rebuild builds it again)"
  exit 0
fi

work="$(mktemp -d /var/tmp/schrodinger-image.XXXXXX)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
base="${IMAGE%%:*}-base:bookworm"
tar -C "$work/rootfs" -c . | docker import - "$base" >/dev/null
rm -rf "$work/rootfs"
cat >"$work/Dockerfile" <<DOCKERFILE
FROM $base
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pytest python3-tz python3-simplejson >/dev/null && rm -rf /var/lib/apt/lists/*
DOCKERFILE
docker build -q -t "$IMAGE" "$work" >/dev/null
echo "image $IMAGE built from nothing in $((SECONDS - started)) s"
