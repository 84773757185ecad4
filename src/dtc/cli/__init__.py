"""The ``dtc`` command line: a thin click layer over the library.

Exit codes are named in :class:`Exit`. Each command lives in its own module of this package and
is registered below.
"""

from __future__ import annotations

from dtc.cli.base import main
from dtc.cli.build_cmd import build_cmd
from dtc.cli.compile_cmd import compile_cmd
from dtc.cli.graph_cmd import graph_cmd
from dtc.cli.lint_cmd import lint_cmd, rule_cmd, rules_cmd
from dtc.cli.lsp_cmd import lsp_cmd
from dtc.cli.odds_cmd import odds_cmd
from dtc.cli.play_cmd import character_group, play_cmd
from dtc.cli.renumber_cmd import renumber_cmd
from dtc.cli.simulate_cmd import simulate_cmd

main.add_command(lint_cmd)
main.add_command(rule_cmd)
main.add_command(rules_cmd)
main.add_command(compile_cmd)
main.add_command(graph_cmd)
main.add_command(play_cmd)
main.add_command(character_group)
main.add_command(renumber_cmd)
main.add_command(build_cmd)
main.add_command(lsp_cmd)
main.add_command(odds_cmd)
main.add_command(simulate_cmd)

__all__ = ["main"]
