"""Podium: the Django project (settings, Celery app) and its apps."""

from tournament.celery import app as celery_app

__all__ = ("celery_app",)
