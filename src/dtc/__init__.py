"""dtc — the authoring toolchain for solo choose-your-own-adventure dungeons."""

__version__ = "0.1.0"

#: Version of the compiled-graph JSON contract (``schemas/adventure.schema.json``) written for a
#: book that uses none of the published-gamebook forms; a book that does is written as
#: :data:`FORMAT_VERSION_PUBLISHED` (docs/format.md, "Writing a published gamebook").
FORMAT_VERSION = 2
FORMAT_VERSION_PUBLISHED = 3
#: The compiled-graph versions this dtc reads (version 1 has no state: possessions, conditions,
#: random branches and ending kinds came with version 2, all optional; the published-gamebook
#: forms with version 3, written only for a book that uses one).
FORMAT_VERSIONS_READ = (1, 2, 3)
