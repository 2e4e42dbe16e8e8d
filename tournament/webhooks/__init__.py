"""Webhooks: organisers' URLs told when a club's standings change (docs/webhooks.md)."""
