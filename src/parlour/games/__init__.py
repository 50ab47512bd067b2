"""The games: each package registers itself with parlour.core.registry."""
