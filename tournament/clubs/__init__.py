"""Clubs and their members' roles."""
