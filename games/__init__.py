"""Pure game engines: no Django, plain dataclasses in, plain results out."""
