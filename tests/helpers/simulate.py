"""Fingerprints of simulation results, shared by the pinned and the cache tests."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dtc.simulate.stats import Tally


def _plain(value: Any) -> Any:
    """JSON-ready and order-independent where order carries no meaning (counters, dicts)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def tally_digest(tally: Tally) -> str:
    fields = {name: _plain(getattr(tally, name)) for name in Tally.__dataclass_fields__}
    fields["problems"] = [[list(map(str, k)), p.count, p.examples] for k, p in sorted(
        tally.problems.items(), key=lambda kv: str(kv[0]))]
    return hashlib.blake2b(json.dumps(fields, sort_keys=True).encode(), digest_size=12).hexdigest()
