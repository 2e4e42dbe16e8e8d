"""Printouts: the printable sheet (``sheet.pdf``) and the share cards (``card.png``)."""
