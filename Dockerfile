# Dogtag's image: `docker compose up` (compose.yaml) runs it as web and worker on PostgreSQL.
# python:3.11-slim on Debian bookworm, whose postgresql-client (15) matches compose's server for pg_dump.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UV_PROJECT_ENVIRONMENT=/opt/dogtag UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy \
    PATH=/opt/dogtag/bin:$PATH

# WeasyPrint's libraries and fonts for the PDFs; pg_dump/pg_restore for `dogtag backup`.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 \
      fonts-dejavu-core postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --create-home --home-dir /home/dogtag --shell /usr/sbin/nologin dogtag

WORKDIR /src
# The locked dependency set first (a layer that changes only with uv.lock), then the project.
RUN pip install "uv>=0.9,<1"
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-install-project --no-editable --extra s3
COPY src ./src
RUN uv sync --frozen --no-editable --extra s3
COPY deploy/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh

# Static files collected (hashed, compressed) into the image; media and SQLite live on the volume.
ENV DOGTAG_VAR_DIR=/var/lib/dogtag DOGTAG_MEDIA_ROOT=/var/lib/dogtag/media DOGTAG_STATIC_ROOT=/opt/dogtag-static \
    DOGTAG_BIND=0.0.0.0:8000
RUN SECRET_KEY=image-build-only-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n') DOGTAG_BASE_URL=http://build \
    dogtag collectstatic_if_changed \
 && mkdir -p /var/lib/dogtag/media && chown -R dogtag /var/lib/dogtag

USER dogtag
WORKDIR /var/lib/dogtag
VOLUME /var/lib/dogtag
EXPOSE 8000
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["serve"]
