"""Club seasons (issue #19 item 4): finished competitions of any game, one points table."""
