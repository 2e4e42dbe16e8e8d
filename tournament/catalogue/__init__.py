"""What a set-up can pick from (API.md "Catalogue"): courses, circuits, layouts, points presets."""
