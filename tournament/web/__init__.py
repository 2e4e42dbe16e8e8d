"""Server-rendered pages: public standings, scorekeeper forms, embeds and CSV exports."""
