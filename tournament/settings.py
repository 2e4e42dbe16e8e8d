"""Podium settings, read from the environment.

The embedded default (no environment at all) is a SQLite file under ``var/`` with Celery tasks run
eagerly in-process; production sets ``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY`` and
``ALLOWED_HOSTS``. Outside ``DEBUG`` the service refuses to start without a ``SECRET_KEY``.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tournament.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("PODIUM_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
# Under pytest the insecure development key is allowed and tests pick their own services.
TESTING = env_bool("PODIUM_TESTING", "pytest" in sys.modules)

# mypy's Django plugin imports these settings to learn the models; it serves nothing, so it may
# use the development key too (a plain ``mypy`` then needs no environment).
TYPE_CHECKING_RUN = "mypy" in sys.modules

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if DEBUG or TESTING or TYPE_CHECKING_RUN:
        SECRET_KEY = "podium-insecure-development-key-never-use-in-production"
    else:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG or TESTING else ""
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournament.clubs",
    "tournament.competitions",
    "tournament.tours",
    "tournament.championships",
    "tournament.rallies",
    "tournament.leagues",
    "tournament.forecasts",
    "tournament.web",
    "tournament.live",
    "tournament.printouts",
    "tournament.webhooks",
    "tournament.players",
    "tournament.seasons",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outside everything below, so that their errors under /api/ are JSON too.
    "tournament.middleware.APIErrorsAsJSONMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.web.context_processors.podium",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------------------------
# DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/podium; default: the embedded SQLite file.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'podium.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # WAL lets the web process read while a worker writes (SQLite is for one machine only).
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    )
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["OPTIONS"]["timeout"] = 20
elif env_int("PODIUM_DB_LOCK_TIMEOUT_MS", 0) > 0:
    # Fail fast instead of waiting on a row lock (workers): the task retries OperationalError
    # with back-off and then marks the event failed. Off by default (PostgreSQL waits).
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        f"-c lock_timeout={env_int('PODIUM_DB_LOCK_TIMEOUT_MS', 0)}"
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker and cache ---------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
# kombu's Redis transport with a guard that keeps the worker alive when Redis dies under load
# (tournament/broker.py).
CELERY_BROKER_TRANSPORT = "tournament.broker:Transport" if REDIS_URL else None
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Without a broker the embedded default runs every task in-process, when it is queued.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = env_bool("CELERY_TASK_EAGER_PROPAGATES", False)
CELERY_TASK_DEFAULT_QUEUE = env_str("PODIUM_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker outage must not hang a web request: fail fast, the sweeper resolves what was left.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # An unacknowledged task (its worker was killed) is delivered again after this many seconds.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # One quick retry when publishing (kombu waits 2 s before it by default): a submission with
    # the broker down answers within a second or so instead of hanging.
    "max_retries": 1,
    "interval_start": 0.2,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
if env_str("CELERY_RESTORE_INTERVAL_SECONDS"):
    # How often a worker looks for unacknowledged tasks past the visibility timeout (kombu's
    # default is a scan every ~100 s); tests with a short visibility timeout lower it.
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] = env_int(
        "CELERY_RESTORE_INTERVAL_SECONDS", 10
    )
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_throttle"] = 1
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BEAT_SCHEDULE = {
    "sweep-pending-results": {
        "task": "tournament.competitions.tasks.sweep_pending",
        # Often enough that a lost simulation or resolution is played again within a minute.
        "schedule": timedelta(seconds=env_int("PODIUM_SWEEP_SECONDS", 20)),
    },
    "purge-idempotency-keys": {
        "task": "tournament.competitions.tasks.purge_idempotency_keys",
        "schedule": timedelta(hours=1),
    },
}
# A stage left `submitted` longer than this is re-queued by the sweeper.
PODIUM_SWEEP_AFTER = timedelta(seconds=env_int("PODIUM_SWEEP_AFTER_SECONDS", 30))
# A worker playing a simulation renews its lease every third of this; a lease left to expire
# means the worker died, and the next sweep queues the simulation again (recovery within about
# a lease and a sweep: 15 + 20 s by default).
PODIUM_SIMULATION_LEASE = timedelta(seconds=env_int("PODIUM_SIMULATION_LEASE_SECONDS", 15))
# Back-off of the resolve task's retries of transient database errors: b, 2b, 4b seconds.
PODIUM_RETRY_BACKOFF_SECONDS = float(env_str("PODIUM_RETRY_BACKOFF_SECONDS", "1") or 1)
# Forecasts (docs/forecasts.md): queued after each change of the standings (off under tests
# unless a test turns them on), simulations per forecast and per chunk task, simulator runs
# kept per course.
PODIUM_FORECASTS = env_bool("PODIUM_FORECASTS", not TESTING)
PODIUM_FORECAST_SIMULATIONS = env_int("PODIUM_FORECAST_SIMULATIONS", 10_000)
PODIUM_FORECAST_CHUNK = env_int("PODIUM_FORECAST_CHUNK", 2_500)
PODIUM_FORECAST_TEMPLATE_RUNS = env_int("PODIUM_FORECAST_TEMPLATE_RUNS", 200)

# pytest-xdist names each process of a test run (gw0, gw1...): see the cache's KEY_PREFIX
_TEST_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "") if TESTING else ""
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # the test suite runs in several processes (pytest-xdist) against one Redis: each
            # keeps its own cache keys (throttle counters); the processes it starts inherit it
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "podium")
            + (f"-{_TEST_PROCESS}" if _TEST_PROCESS else ""),
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- live updates (tournament/live, docs/live.md) --------------------------------------------
# A comment line on every open event stream this often (API.md: at least every 30 s).
PODIUM_LIVE_KEEPALIVE_SECONDS = env_int("PODIUM_LIVE_KEEPALIVE_SECONDS", 15)
# How often a page polls when its stream fails, and the reconnection delay of a WSGI answer.
PODIUM_LIVE_POLL_SECONDS = env_int("PODIUM_LIVE_POLL_SECONDS", 10)
# Hold event streams open under WSGI too (runserver); gunicorn must not be held: off outside DEBUG.
PODIUM_LIVE_WSGI_STREAM = env_bool("PODIUM_LIVE_WSGI_STREAM", DEBUG)

# --- webhooks (tournament/webhooks, docs/webhooks.md) ------------------------------------------
# Also call private, loopback and link-local addresses (the tests' receiver): not in production.
PODIUM_WEBHOOKS_ALLOW_PRIVATE = env_bool("PODIUM_WEBHOOKS_ALLOW_PRIVATE", False)
# Back-off before the 2nd to 5th attempts: b, 4b, 16b, 64b seconds; each attempt's timeout.
PODIUM_WEBHOOKS_BACKOFF_SECONDS = float(env_str("PODIUM_WEBHOOKS_BACKOFF_SECONDS", "2") or 2)
PODIUM_WEBHOOKS_TIMEOUT_SECONDS = float(env_str("PODIUM_WEBHOOKS_TIMEOUT_SECONDS", "5") or 5)
# The queue of the delivery task ("" = the default queue); the address webhook links start with.
PODIUM_WEBHOOKS_QUEUE = env_str("PODIUM_WEBHOOKS_QUEUE", "")
PODIUM_SITE_URL = env_str("PODIUM_SITE_URL", "http://localhost:8000")

# --- auth ----------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed sign-ins on the login pages, per client address and username (tournament/clubs/auth.py).
PODIUM_LOGIN_MAX_FAILURES = env_int("PODIUM_LOGIN_MAX_FAILURES", 5)
PODIUM_LOGIN_LOCKOUT_SECONDS = env_int("PODIUM_LOGIN_LOCKOUT_SECONDS", 900)
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- i18n ----------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("pt", _("Portuguese")),
    ("es", _("Spanish")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Lisbon")
USE_I18N = True
USE_TZ = True

# --- static files --------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not (DEBUG or TESTING)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- API -----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Deny by default: every API view declares its access (competitions/access.py), and
    # tests/security/test_permission_matrix.py fails for a route that does not.
    "DEFAULT_PERMISSION_CLASSES": ["tournament.competitions.access.DenyUndeclared"],
    # ?page= is a positive whole number: anything else is a 400 (and a page past the end a 404).
    "DEFAULT_PAGINATION_CLASS": "tournament.competitions.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    # Every operation documents every answer it can give (tournament/competitions/schema.py).
    "DEFAULT_SCHEMA_CLASS": "tournament.competitions.schema.PodiumAutoSchema",
    # JSON bodies only (API.md; any other media type is a 415). JSON nested deeper than any
    # request needs is a 400, not a RecursionError (500).
    "DEFAULT_PARSER_CLASSES": ["tournament.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "tournament.competitions.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_THROTTLE_RATES": {"auth": env_str("PODIUM_AUTH_THROTTLE", "20/min")},
    # Proxies in front of the web server: 0 throttles by the connecting address, so a client
    # cannot pick its own identity with X-Forwarded-For; 1 behind one trusted TLS proxy.
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Podium API",
    "DESCRIPTION": "Racing campaigns for board-game clubs: Grand Tours, championships, rallies.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One name per choice set: every event's status (stages, races, rally stages), and the
    # Formula D result row's status, otherwise both "status" enums get a hashed name.
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournament.competitions.models.Status",
        "RaceResultStatusEnum": ["finished", "eliminated"],
        # A member's role, in the club's members and in the add-a-member request.
        "RoleEnum": "tournament.clubs.models.Role",
        # Forecasts: the answer's status, and each title entry's (tournament/forecasts/api.py).
        "ForecastStatusEnum": "tournament.forecasts.models.ForecastStatus",
        "TitleStatusEnum": ["clinched", "eliminated", "open"],
        # The games a player's record, the hall of fame and a season name (players, seasons).
        "CompetitionKindEnum": "tournament.seasons.models.Kind",
        "RecordKindEnum": ["tour", "championship", "league", "rally"],
    },
    # Served from our own static files: clubs run Podium offline too.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- security (production) -----------------------------------------------------------------------
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY") else None
)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG and not TESTING)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG and not TESTING)
SESSION_COOKIE_HTTPONLY = True
# Off by default: HSTS is a promise that the host serves HTTPS only (docker/compose.yaml sets it).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# For example security.W021 (HSTS preload is the domain owner's opt-in; docker/compose.yaml).
SILENCED_SYSTEM_CHECKS = env_list("SILENCED_SYSTEM_CHECKS")

# One handler, on the root logger: every logger propagates to it, so each line is printed once.
# Django's own default configuration (applied before this one) gives the "django" logger a console
# handler of its own too (shown under DEBUG): naming the logger here without handlers removes
# it, or every django.* line (requests, 404s, errors) came out twice. Celery's worker and beat
# replace the root handler by theirs (worker_hijack_root_logger), which stays the only one.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
    "loggers": {
        "tournament": {"level": env_str("LOG_LEVEL", "INFO"), "propagate": True},
        "django": {"handlers": [], "level": "INFO", "propagate": True},
    },
}
