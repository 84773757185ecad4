"""dtc — the authoring toolchain for solo choose-your-own-adventure dungeons."""

__version__ = "0.1.0"

#: Version of the compiled-graph JSON contract (``schemas/adventure.schema.json``).
FORMAT_VERSION = 1
