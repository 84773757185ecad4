"""dtc — the authoring toolchain for solo choose-your-own-adventure dungeons."""

__version__ = "0.1.0"

#: Version of the compiled-graph JSON contract (``schemas/adventure.schema.json``).
FORMAT_VERSION = 2
#: The compiled-graph versions this dtc reads (version 1 has no state: possessions, conditions,
#: random branches and ending kinds came with version 2, all optional).
FORMAT_VERSIONS_READ = (1, 2)
