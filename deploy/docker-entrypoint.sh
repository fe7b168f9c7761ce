#!/bin/sh
# The image's entry: `migrate` (as the tables' owner) applies the migrations and grants the app's role
# (DATABASE_APP_ROLE, password DATABASE_APP_PASSWORD) its privileges; `serve` (the default) applies
# any migration its own role may (all of them on SQLite) and serves; `worker` runs the background worker; anything else is a
# dogtag command (`backup /backups/today`, `createsuperuser`...).
set -eu
command=${1:-serve}
[ $# -gt 0 ] && shift
case "$command" in
  migrate)
    exec dogtag migrate --noinput  # then grants DATABASE_APP_ROLE (ops/dbrole.py)
    ;;
  serve)
    dogtag migrate --noinput  # nothing to do once `migrate` ran as the owner; the app's role cannot alter tables
    exec dogtag serve "$@"
    ;;
  worker)
    exec dogtag worker "$@"
    ;;
  *)
    exec dogtag "$command" "$@"
    ;;
esac
