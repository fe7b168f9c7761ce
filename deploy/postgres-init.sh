#!/bin/sh
# Run once by the postgres image, as its superuser, when its volume is empty (compose.yaml mounts it
# in /docker-entrypoint-initdb.d): the roles of README's install without containers. dogtag_owner
# owns the database and its tables and has no CREATEROLE (it runs the migrations, compose's
# `migrate`); dogtag_app owns nothing (web and worker); `dogtag migrate` grants it its privileges.
set -eu
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v owner_password="$POSTGRES_OWNER_PASSWORD" -v app_password="$POSTGRES_APP_PASSWORD" <<'SQL'
CREATE ROLE dogtag_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'owner_password';
CREATE ROLE dogtag_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
CREATE DATABASE dogtag OWNER dogtag_owner;
SQL
