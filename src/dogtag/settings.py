"""Django settings, read from environment variables (see lib/env.py and README.md)."""

import json
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.conf.locale import LANG_INFO
from django.core.checks.security.base import SECRET_KEY_MIN_LENGTH, SECRET_KEY_MIN_UNIQUE_CHARACTERS

from dogtag.lib.env import ImproperlyConfiguredEnv, envbool, envcron, envdays_by_key, envint, envlist, envstr

BASE_DIR = Path(__file__).resolve().parent
VAR_DIR = Path(envstr("DOGTAG_VAR_DIR") or BASE_DIR.parent.parent / "var")

DEBUG = envbool("DEBUG", False)
DEVELOPMENT_SECRET_KEY = "django-insecure-development-key-set-SECRET_KEY"
SECRET_KEY = envstr("SECRET_KEY") or DEVELOPMENT_SECRET_KEY
if not DEBUG and (SECRET_KEY == DEVELOPMENT_SECRET_KEY or SECRET_KEY.startswith("django-insecure")):
    # Sessions, password resets and the residents' signed renewal links are only as secret as this.
    raise ImproperlyConfiguredEnv(
        "SECRET_KEY is not set (or is the development key) and DEBUG is false: set SECRET_KEY or "
        "SECRET_KEY_FILE to a long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))'), "
        "or DEBUG=true on a development machine."
    )
if not DEBUG and (
    len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
):
    # The same test as Django's deploy check (security.W009), made a refusal to start.
    raise ImproperlyConfiguredEnv(
        f"SECRET_KEY is weak ({len(SECRET_KEY)} characters, {len(set(SECRET_KEY))} different; Django's deploy "
        f"check wants at least {SECRET_KEY_MIN_LENGTH} and {SECRET_KEY_MIN_UNIQUE_CHARACTERS}): set it to a long "
        "random value (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    # django-ninja's templates and static files: the API's Swagger page served from Dogtag's own
    # static files (swagger-ui as ninja vendors it, no CDN), under the Content-Security-Policy.
    "ninja",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "dogtag.accounts",
    "dogtag.audit",
    "dogtag.registry",
    "dogtag.enforcement",
    "dogtag.permits",
    "dogtag.documents",
    "dogtag.licensing",
    "dogtag.outbox",
    "dogtag.portal",
    "dogtag.payments",
    "dogtag.imports",
    "dogtag.reports",
    "dogtag.ops",
    "django_q",
    "dogtag.worker",
    # Django's form templates, found through TEMPLATES so that templates/django/forms/ overrides them.
    "django.forms",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "dogtag.lib.api_errors.ApiErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files keep their caching): no answer with an owner's data is stored.
    "dogtag.lib.no_store.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    # Before any view (and CSRF's process_view, which reads the form) touches the body.
    "dogtag.lib.body_limit.BodyLimitMiddleware",
    "dogtag.lib.control_characters.ControlCharacterMiddleware",
    # The resident's language on the public portal, English everywhere else (after authentication).
    "dogtag.portal.language.PortalLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "dogtag.accounts.sessions.IdleTimeoutMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "dogtag.accounts.second_factor.SecondFactorMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "dogtag.urls"
WSGI_APPLICATION = "dogtag.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dogtag.accounts.context_processors.memberships",
            ],
            # A pack's quote as a person reads it, in every template (documents/templatetags/quoted.py).
            "builtins": ["dogtag.documents.templatetags.quoted"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'dogtag.sqlite3'}",
        # Keep connections between requests (a new PostgreSQL connection costs more than a page).
        conn_max_age=envint("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while a clerk writes; IMMEDIATE takes the write lock at BEGIN so
    # two concurrent issuers queue on the busy timeout instead of failing mid-transaction.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": envint("SQLITE_BUSY_TIMEOUT", 20),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    }
# The app's own PostgreSQL role, granted its privileges (audit rows append-only) after each `migrate`
# run as the tables' owner (ops/dbrole.py), and created with this password if missing; empty:
# `dogtag db grant ROLE` does it by hand.
DATABASE_APP_ROLE = envstr("DATABASE_APP_ROLE") or ""
DATABASE_APP_PASSWORD = envstr("DATABASE_APP_PASSWORD") or ""
# Test databases are named per process, so two test runs on one machine never share one.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and envbool("DB_PREPARED_STATEMENTS", True):
    # Values bound by the server, and a statement run five times on a connection prepared there
    # (psycopg's prepare_threshold): the counter's and the tag lookup's reads are planned once per
    # connection. DB_PREPARED_STATEMENTS=false for a transaction pooler, which cannot keep them.
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-dogtag-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}

# How long a bearer token's user is remembered, shared and in each process (accounts/tokens.py).
API_TOKEN_CACHE_SECONDS = envint("API_TOKEN_CACHE_SECONDS", 30)
API_TOKEN_LOCAL_SECONDS = envint("API_TOKEN_LOCAL_SECONDS", 5)

# A streaming replica for the reports and list pages (lib/replica.py; docs/scale-out.md). In
# tests it mirrors the default database.
DOGTAG_READ_REPLICA = None
if envstr("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        envstr("DATABASE_REPLICA_URL"), conn_max_age=envint("DB_CONN_MAX_AGE", 60), conn_health_checks=True
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DOGTAG_READ_REPLICA = "replica"
DATABASE_ROUTERS = ["dogtag.lib.replica.ReplicaRouter"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTH_PASSWORD_VALIDATORS += [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTH_PASSWORD_VALIDATORS[0]["OPTIONS"] = {"min_length": envint("PASSWORD_MIN_LENGTH", 12)}
AUTHENTICATION_BACKENDS = [
    # django-axes first: a locked-out username is refused before its password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes, accounts/lockout.py): AXES_FAILURE_LIMIT wrong passwords for one username
# from one address lock that pair for AXES_COOLOFF_MINUTES; DOGTAG_LOCKOUT_USERNAME_LIMIT for one username
# from any addresses lock the username for DOGTAG_LOCKOUT_USERNAME_MINUTES. An attacker elsewhere cannot
# lock a clerk out at her counter with a few guesses, and an office behind one address is never locked whole.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_MINUTES = envint("AXES_COOLOFF_MINUTES", 15)
DOGTAG_LOCKOUT_USERNAME_LIMIT = envint("DOGTAG_LOCKOUT_USERNAME_LIMIT", 30)
DOGTAG_LOCKOUT_USERNAME_MINUTES = envint("DOGTAG_LOCKOUT_USERNAME_MINUTES", 60)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username"]
AXES_HANDLER = "dogtag.accounts.lockout.LockoutHandler"
AXES_COOLOFF_TIME = timedelta(minutes=max(AXES_COOLOFF_MINUTES, DOGTAG_LOCKOUT_USERNAME_MINUTES, 1))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_LOCKOUT_CALLABLE = "dogtag.accounts.lockout.lockout_response"  # which lock, its cool-off in words
AXES_CLIENT_IP_CALLABLE = "dogtag.lib.client.client_address"
AXES_SENSITIVE_PARAMETERS = ["password", "token"]
# Content-Security-Policy (django-csp): scripts and styles only from Dogtag's own static files
# (htmx, Chart.js and Dogtag's scripts are vendored there); no inline script or style anywhere.
# The API's interactive documentation (django-ninja's Swagger page) is one of them: its scripts
# are ninja's own static files and its settings a JSON block, not an inline script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Permissions-Policy (django-permissions-policy): Dogtag uses none of the browser's powerful features.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "xr-spatial-tracking",
    )
}
# A second factor (django-otp, TOTP): required of administrators, open to every staff user.
OTP_TOTP_ISSUER = envstr("OTP_TOTP_ISSUER", "Dogtag")
# Sessions: DOGTAG_SESSION_IDLE_MINUTES without a request ends one (accounts/sessions.py; 0 for no limit);
# SESSION_COOKIE_AGE (seconds) bounds its whole life, a working day by default.
DOGTAG_SESSION_IDLE_MINUTES = envint("DOGTAG_SESSION_IDLE_MINUTES", 30)
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_AGE", 12 * 3600)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
TIME_ZONE = "America/Chicago"
# Forms render through TEMPLATES: templates/django/forms/ puts each field's error after its label and
# input, where its aria-describedby points.
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

# Languages: the portal, the resident's emails and documents speak the resident's language
# (portal/language.py); staff pages stay English. A language is offered to residents only once its
# catalogue under locale/ is complete (portal.language.offered). Catalogues: docs/translations.md.
USE_I18N = True
LANGUAGES = [("en", "English"), ("es", "Español"), ("hmn", "Hmoob")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django 5.2 knows no Hmong: its entry, as django/conf/locale/__init__.py writes the others.
LANG_INFO.setdefault("hmn", {"bidi": False, "code": "hmn", "name": "Hmong", "name_local": "Hmoob"})
FORMAT_MODULE_PATH = ["dogtag.formats"]  # one date format on screen: March 1, 2027 (1 de marzo de 2027)
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(envstr("DOGTAG_STATIC_ROOT") or VAR_DIR / "static")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files a browser asks for at the site's root (/favicon.ico), served by WhiteNoise.
WHITENOISE_ROOT = BASE_DIR / "webroot"
try:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
except OSError:  # a read-only deployment collects static files elsewhere
    pass
MEDIA_ROOT = Path(envstr("DOGTAG_MEDIA_ROOT") or VAR_DIR / "media")
MEDIA_URL = "/media/"  # never served as such: every stored file goes out through a view that checks access
# The key `dogtag backup` seals a backup with and `dogtag restore-backup` opens it with (ops/sealed.py);
# read only by those commands, so every other command runs without it.
DOGTAG_BACKUP_KEY = envstr("DOGTAG_BACKUP_KEY")


def _storage_options(name: str) -> dict:
    raw = envstr(name) or "{}"
    try:
        options = json.loads(raw)
    except ValueError as e:
        raise ImproperlyConfiguredEnv(f"{name}: expected a JSON object of storage options ({e})") from None
    if not isinstance(options, dict):
        raise ImproperlyConfiguredEnv(f"{name}={raw!r}: expected a JSON object of storage options")
    return options


STORAGES = {
    # Uploads, generated PDFs and import files, always through django.core.files.storage: a shared
    # or object store (django-storages, e.g. storages.backends.s3.S3Storage) is a setting, not code.
    "default": {
        "BACKEND": envstr("DOGTAG_MEDIA_STORAGE") or "django.core.files.storage.FileSystemStorage",
        "OPTIONS": _storage_options("DOGTAG_MEDIA_STORAGE_OPTIONS"),
    },
    # Hashed, compressed names in production (collected by `dogtag serve` or the image's build);
    # the development server serves the sources as they are.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "dogtag.ops.static.StaticFilesStorage",
    },
}

EMAIL_BACKEND = envstr("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = envstr("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 30)  # seconds; a mail server that hangs is a refusal, retried later
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "dogtag@localhost")

SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer probes over plain HTTP
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if envbool("BEHIND_PROXY", False) else None
# How many proxies in front of Dogtag append to X-Forwarded-For; the client's address is the
# entry that many places from the right (the entries left of it are the client's own words).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 1 if SECURE_PROXY_SSL_HEADER else 0)

# One JSON object a line on stdout (dogtag/ops/logs.py), the server's access log included;
# DOGTAG_LOG_FORMAT=text for people reading a terminal (the default with DEBUG=true).
LOG_FORMAT = envstr("DOGTAG_LOG_FORMAT") or ("text" if DEBUG else "json")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfiguredEnv(f"DOGTAG_LOG_FORMAT={LOG_FORMAT!r}: expected json or text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "dogtag.ops.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"},
    },
    "handlers": {"stdout": {"class": "logging.StreamHandler", "stream": "ext://sys.stdout", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["stdout"], "level": envstr("LOG_LEVEL", "WARNING")},
    "loggers": {
        name: {"handlers": ["stdout"], "level": "INFO", "propagate": False}
        for name in ("gunicorn.error", "gunicorn.access", "dogtag")
    },
}

# Error reports to Sentry (or a compatible service such as GlitchTip) when a DSN is given.
SENTRY_DSN = envstr("SENTRY_DSN")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=envstr("SENTRY_ENVIRONMENT", "production"),
        release=envstr("SENTRY_RELEASE"),
        send_default_pii=False,  # owners' names and addresses stay out of error reports
        traces_sample_rate=0.0,
    )

# The address residents and staff reach Dogtag at: the links in emails and on printed notices.
# Required in production; a wrong default would mail every resident a link to localhost.
DOGTAG_BASE_URL = (envstr("DOGTAG_BASE_URL") or "").rstrip("/")
if not DOGTAG_BASE_URL:
    if not DEBUG:
        raise ImproperlyConfiguredEnv(
            "DOGTAG_BASE_URL is not set and DEBUG is false: set it to the address residents use, "
            "e.g. DOGTAG_BASE_URL=https://dogs.example-county.gov (links in emails and notices)."
        )
    DOGTAG_BASE_URL = f"http://127.0.0.1:{envint('PORT', 8000)}"
_base = urlsplit(DOGTAG_BASE_URL)
if _base.scheme not in ("http", "https") or not _base.netloc or _base.query or _base.fragment:
    raise ImproperlyConfiguredEnv(f"DOGTAG_BASE_URL={DOGTAG_BASE_URL!r}: expected http(s)://host[:port][/path]")

# The public portal (src/dogtag/portal). None of these is a legal number.
# Online card payments (src/dogtag/payments): each municipality's processor and its secrets are
# read per municipality by lib/processors.py (DOGTAG_PROCESSOR_<MUNICIPALITY>, ...), never stored.
DOGTAG_PROCESSOR_TIMEOUT_SECONDS = envint("DOGTAG_PROCESSOR_TIMEOUT_SECONDS", 20)  # one call to the processor
DOGTAG_CHECKOUT_MINUTES = envint("DOGTAG_CHECKOUT_MINUTES", 60)  # a hosted checkout page stays open (Stripe: 30+)
DOGTAG_REFUND_ATTEMPTS = envint("DOGTAG_REFUND_ATTEMPTS", 20)  # then a failed refund waits for the clerk
DOGTAG_UPLOAD_MAX_BYTES = envint("DOGTAG_UPLOAD_MAX_BYTES", 5_000_000)
# A whole request body, refused by its Content-Length before it is read (lib/body_limit.py):
# an application carries two uploads; the clerk's roll import may be larger.
DOGTAG_REQUEST_MAX_BYTES = envint("DOGTAG_REQUEST_MAX_BYTES", 2 * DOGTAG_UPLOAD_MAX_BYTES + 1_000_000)
DOGTAG_IMPORT_MAX_BYTES = envint("DOGTAG_IMPORT_MAX_BYTES", 200_000_000)
# Form fields (and API JSON) held in memory, and the size past which an upload streams to a temporary file.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_500_000)
FILE_UPLOAD_MAX_MEMORY_SIZE = envint("FILE_UPLOAD_MAX_MEMORY_SIZE", 2_500_000)
DOGTAG_LOOKUP_LIMIT = envint("DOGTAG_LOOKUP_LIMIT", 20)  # found-dog lookups per client address...
DOGTAG_LOOKUP_WINDOW_MINUTES = envint("DOGTAG_LOOKUP_WINDOW_MINUTES", 60)  # ...within this window
# Portal applications started (each emails a link) per client address, and per email address,
# within a window (portal/actions.py `_throttle_start`).
DOGTAG_APPLICATION_LIMIT = envint("DOGTAG_APPLICATION_LIMIT", 10)
DOGTAG_APPLICATION_EMAIL_LIMIT = envint("DOGTAG_APPLICATION_EMAIL_LIMIT", 3)
DOGTAG_APPLICATION_WINDOW_MINUTES = envint("DOGTAG_APPLICATION_WINDOW_MINUTES", 60)
# Renewal codes typed on the portal's front page per client address within a window
# (portal/actions.py `open_renewal_by_code`): 8 characters of 32 are not found by trying under it.
DOGTAG_RENEWAL_CODE_LIMIT = envint("DOGTAG_RENEWAL_CODE_LIMIT", 10)
DOGTAG_RENEWAL_CODE_WINDOW_MINUTES = envint("DOGTAG_RENEWAL_CODE_WINDOW_MINUTES", 60)
DOGTAG_UPLOAD_LIMIT = envint("DOGTAG_UPLOAD_LIMIT", 20)  # files uploaded on the portal per client address...
DOGTAG_UPLOAD_WINDOW_MINUTES = envint("DOGTAG_UPLOAD_WINDOW_MINUTES", 60)  # ...within this window
# The most pixels a photo may declare in its header; it is refused before a pixel is decoded
# (a phone's photo is 12 to 50 megapixels; a decoded pixel takes 3 to 4 bytes of memory).
DOGTAG_UPLOAD_MAX_PIXELS = envint("DOGTAG_UPLOAD_MAX_PIXELS", 50_000_000)
# The oldest birth date accepted for an animal, in years back from today: a plausibility limit.
DOGTAG_OLDEST_ANIMAL_YEARS = envint("DOGTAG_OLDEST_ANIMAL_YEARS", 40)
# How far ahead a date that may lie ahead (an ownership, a certificate's expiry, a court date) is accepted.
DOGTAG_FURTHEST_AHEAD_YEARS = envint("DOGTAG_FURTHEST_AHEAD_YEARS", 5)
# Dogtag's own reminder lead time before a rabies certificate runs out; no rule pack sets one.
DOGTAG_RABIES_REMINDER_DAYS = envint("DOGTAG_RABIES_REMINDER_DAYS", 30)
# Renewal reminders (licensing/reminders.py): Dogtag's own courtesy, not law (no rule pack sets
# them). Days relative to the end of a license's year (the engine's `license_expiry`, stored on the
# license): negative before it, positive after it while the dog is still unlicensed. One list for
# every municipality ("-30,-7,7,30"), or per municipality by slug ("benton:-30,-7,7,30;webster:-14,14"),
# the others taking the default. A reminder not sent within DOGTAG_RENEWAL_REMINDER_LATE_DAYS of its
# day (the worker was down) is not sent at all: a later lead time takes over.
DOGTAG_RENEWAL_REMINDER_DAYS = envdays_by_key("DOGTAG_RENEWAL_REMINDER_DAYS", "-30,-7,7,30")
DOGTAG_RENEWAL_REMINDER_LATE_DAYS = envint("DOGTAG_RENEWAL_REMINDER_LATE_DAYS", 3)
# Reminders delivered (emails rendered, letters drawn) per transaction by the worker.
DOGTAG_RENEWAL_REMINDER_BATCH = envint("DOGTAG_RENEWAL_REMINDER_BATCH", 500)

# Background work (src/dogtag/worker): django-q2 on its ORM broker, so the queue lives in the same
# database on SQLite and PostgreSQL. `retry` must exceed `timeout`: a task still running when its
# retry lease runs out would be handed to a second worker; a worker killed mid-task leaves its
# task locked until the lease ends, then another worker takes it (every task is idempotent).
DOGTAG_TASK_TIMEOUT = envint("DOGTAG_TASK_TIMEOUT", 300)
DOGTAG_TASK_RETRY = envint("DOGTAG_TASK_RETRY", DOGTAG_TASK_TIMEOUT + 60)
if DOGTAG_TASK_RETRY <= DOGTAG_TASK_TIMEOUT:
    raise ImproperlyConfiguredEnv(
        f"DOGTAG_TASK_RETRY={DOGTAG_TASK_RETRY} must be larger than DOGTAG_TASK_TIMEOUT={DOGTAG_TASK_TIMEOUT}, "
        "or a task still running is handed to a second worker"
    )
Q_CLUSTER = {
    "name": "dogtag",
    "orm": "default",
    "workers": envint("DOGTAG_WORKERS", 2),
    "timeout": DOGTAG_TASK_TIMEOUT,
    "retry": DOGTAG_TASK_RETRY,
    # A failed task goes back to the queue until it has failed this many times; then it stays in
    # the admin's "Failed tasks" list.
    "max_attempts": envint("DOGTAG_TASK_MAX_ATTEMPTS", 5),
    "ack_failures": envbool("DOGTAG_TASK_ACK_FAILURES", False),
    "catch_up": False,  # a worker down over a night runs a missed daily schedule once, not once per day
    "save_limit": envint("DOGTAG_TASK_SAVE_LIMIT", 1000),
    "recycle": envint("DOGTAG_TASK_RECYCLE", 200),  # a worker process is replaced after this many tasks
    "max_rss": envint("DOGTAG_TASK_MAX_RSS_KB", 500_000),  # ...or once it holds this much memory
    "bulk": 1,
    # Lets Q_CLUSTER_NAME give a worker a queue of its own (django-q2 reads this key when it is set).
    "ALT_CLUSTERS": {},
    "poll": 0.5,
    "label": "Background tasks",
}
# Tasks run in the calling process on commit instead of in `dogtag worker` (the test suite's
# default; never in production, where a request must not do the worker's work).
DOGTAG_TASKS_INLINE = envbool("DOGTAG_TASKS_INLINE", False)
# Schedules: a cron expression in America/Chicago time each, or "off".
DOGTAG_SCHEDULES = {
    "heartbeat": ("dogtag.worker.tasks.heartbeat", envcron("DOGTAG_SCHEDULE_HEARTBEAT", "* * * * *")),
    "outbox": ("dogtag.outbox.tasks.send_outbox", envcron("DOGTAG_SCHEDULE_OUTBOX", "* * * * *")),
    "rabies reminders": (
        "dogtag.portal.tasks.send_rabies_reminders",
        envcron("DOGTAG_SCHEDULE_RABIES_REMINDERS", "0 6 * * *"),
    ),
    "renewal reminders": (
        "dogtag.licensing.tasks.send_renewal_reminders",
        envcron("DOGTAG_SCHEDULE_RENEWAL_REMINDERS", "15 6 * * *"),
    ),
    # Online payments: notifications whose settling failed (the processor did not answer) and
    # refunds that failed are tried again; yesterday's charges and refunds are reconciled.
    "online payments": (
        "dogtag.payments.tasks.retry_waiting",
        envcron("DOGTAG_SCHEDULE_ONLINE_PAYMENTS", "*/10 * * * *"),
    ),
    "reconciliation": (
        "dogtag.payments.tasks.reconcile_yesterday",
        envcron("DOGTAG_SCHEDULE_RECONCILIATION", "30 4 * * *"),
    ),
    # Checked daily; each list is stored once, on the return date the rule pack sets, less the lead below.
    "tag return lists": (
        "dogtag.licensing.tasks.store_tag_return_lists",
        envcron("DOGTAG_SCHEDULE_TAG_RETURN_LISTS", "0 5 * * *"),
    ),
    # The audit trail's hash chain verified (audit/chain.py); a break is reported on /healthz.
    "audit verify": ("dogtag.audit.tasks.verify_chain", envcron("DOGTAG_SCHEDULE_AUDIT_VERIFY", "30 2 * * *")),
}
# Days before the law's return date that the year's tag return list is stored (0: on the date itself).
DOGTAG_TAG_RETURN_LEAD_DAYS = envint("DOGTAG_TAG_RETURN_LEAD_DAYS", 0)
# /healthz calls the worker stale when its last heartbeat is older than this.
DOGTAG_WORKER_STALE_SECONDS = envint("DOGTAG_WORKER_STALE_SECONDS", 180)
# The outbox (src/dogtag/outbox/sender.py): claimed batches, exponential backoff, dead letters.
DOGTAG_OUTBOX_BATCH = envint("DOGTAG_OUTBOX_BATCH", 50)
DOGTAG_OUTBOX_CLAIM_SECONDS = envint("DOGTAG_OUTBOX_CLAIM_SECONDS", 600)  # a killed sender's claims expire
DOGTAG_OUTBOX_BACKOFF_SECONDS = envint("DOGTAG_OUTBOX_BACKOFF_SECONDS", 60)  # 1, 2, 4, 8 ... minutes
DOGTAG_OUTBOX_BACKOFF_MAX_SECONDS = envint("DOGTAG_OUTBOX_BACKOFF_MAX_SECONDS", 6 * 3600)
DOGTAG_OUTBOX_MAX_ATTEMPTS = envint("DOGTAG_OUTBOX_MAX_ATTEMPTS", 8)  # then a dead letter
# Text messages (outbox/texts.py): "twilio" (each municipality's account from
# DOGTAG_TWILIO_<MUNICIPALITY>_ACCOUNT_SID, _AUTH_TOKEN and _FROM) or "console" (written to the log).
DOGTAG_TEXT_BACKEND = envstr("DOGTAG_TEXT_BACKEND") or ("console" if DEBUG else "twilio")
if DOGTAG_TEXT_BACKEND not in ("twilio", "console"):
    raise ImproperlyConfiguredEnv(f"DOGTAG_TEXT_BACKEND={DOGTAG_TEXT_BACKEND!r}: expected twilio or console")
# A renewal run's notices are printed by the worker in PDFs of at most this many notices each.
DOGTAG_RENEWAL_CHUNK_SIZE = envint("DOGTAG_RENEWAL_CHUNK_SIZE", 200)
# An import whose heartbeat (one a batch) is older than this was killed: shown as interrupted.
DOGTAG_IMPORT_STALE_SECONDS = envint("DOGTAG_IMPORT_STALE_SECONDS", 120)
# Connections an import writes its checked batches over at once, on PostgreSQL (imports/actions.py).
DOGTAG_IMPORT_WRITERS = envint("DOGTAG_IMPORT_WRITERS", 2)
if DOGTAG_IMPORT_WRITERS < 1:
    raise ImproperlyConfiguredEnv(f"DOGTAG_IMPORT_WRITERS={DOGTAG_IMPORT_WRITERS}: expected 1 or more")
