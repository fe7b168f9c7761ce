#!/bin/sh
# The image's entry: `serve` (the default) applies migrations and serves; `worker` runs the
# background worker; anything else is a dogtag command (`backup /backups/today`, `createsuperuser`...).
set -eu
command=${1:-serve}
[ $# -gt 0 ] && shift
case "$command" in
  serve)
    dogtag migrate --noinput
    exec dogtag serve "$@"
    ;;
  worker)
    exec dogtag worker "$@"
    ;;
  *)
    exec dogtag "$command" "$@"
    ;;
esac
