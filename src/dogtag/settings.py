"""Django settings, read from environment variables (see lib/env.py and README.md)."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from dogtag.lib.env import envbool, envint, envlist, envstr

BASE_DIR = Path(__file__).resolve().parent
VAR_DIR = Path(envstr("DOGTAG_VAR_DIR") or BASE_DIR.parent.parent / "var")

DEBUG = envbool("DEBUG", False)
# Without SECRET_KEY a development key is used; `dogtag check --deploy` flags it (W009).
SECRET_KEY = envstr("SECRET_KEY") or "django-insecure-development-key-set-SECRET_KEY"
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
    "dogtag.imports",
    "dogtag.reports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "dogtag.lib.api_errors.ApiErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    # Before any view (and CSRF's process_view, which reads the form) touches the body.
    "dogtag.lib.body_limit.BodyLimitMiddleware",
    "dogtag.lib.control_characters.ControlCharacterMiddleware",
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
# Test databases are named per process, so two test runs on one machine never share one.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-dogtag-{os.getpid()}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}

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
# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords a username (or an address) is locked
# until an administrator unlocks it in the admin (Axes > Access attempts: delete the row), or
# after AXES_COOLOFF_MINUTES when that is set.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own: one account, or one address
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 0)) or None
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "dogtag.lib.client.client_address"
AXES_SENSITIVE_PARAMETERS = ["password", "token"]
# A second factor (django-otp, TOTP): required of administrators, open to every staff user.
OTP_TOTP_ISSUER = envstr("OTP_TOTP_ISSUER", "Dogtag")
# Sessions: DOGTAG_SESSION_IDLE_MINUTES without a request ends one (accounts/sessions.py);
# SESSION_COOKIE_AGE (seconds) bounds its whole life, a working day by default.
DOGTAG_SESSION_IDLE_MINUTES = envint("DOGTAG_SESSION_IDLE_MINUTES", 30)
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_AGE", 12 * 3600)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Stateless app processes serve their own static files; finders spare a collectstatic step.
WHITENOISE_USE_FINDERS = True
try:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
except OSError:  # a read-only deployment collects static files elsewhere
    pass
MEDIA_ROOT = VAR_DIR / "media"

EMAIL_BACKEND = envstr("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = envstr("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "dogtag@localhost")

SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if envbool("BEHIND_PROXY", False) else None
# How many proxies in front of Dogtag append to X-Forwarded-For; the client's address is the
# entry that many places from the right (the entries left of it are the client's own words).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 1 if SECURE_PROXY_SSL_HEADER else 0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "WARNING")},
}

# The public portal (src/dogtag/portal). None of these is a legal number.
DOGTAG_BASE_URL = envstr("DOGTAG_BASE_URL", "http://127.0.0.1:8000")  # links in emails
DOGTAG_PAYMENT_PROVIDERS = envlist("DOGTAG_PAYMENT_PROVIDERS", "counter")  # add test-card for demos
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
# Dogtag's own reminder lead time before a rabies certificate runs out; no rule pack sets one.
DOGTAG_RABIES_REMINDER_DAYS = envint("DOGTAG_RABIES_REMINDER_DAYS", 30)
