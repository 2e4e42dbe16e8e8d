"""ASGI entry point of the live service: ``uvicorn tournament.live.asgi:application``.

The whole Django application, served asynchronously, so that an open event stream holds no
thread (``tournament.live.stream``); the reverse proxy sends ``/api/*/events/`` here (README).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_asgi_application()
