"""Settings for the HTTP benchmarks: Podium's own, plus a bare DRF view to compare with."""

from tournament.settings import *  # noqa: F403

ROOT_URLCONF = "bench.bench_urls"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
