"""Helpers shared by the games' tile converters (src/games/<id>/tiles.py) and tools/gen_tiles.py."""
