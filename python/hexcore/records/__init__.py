"""Game records.

* :mod:`hexcore.records.hexcore_json` -- hexcore's own JSON format:
  ``to_json(game)`` / ``from_json(text)`` (and ``to_dict`` / ``from_dict``)
  round-trip any game in any state exactly.
* :mod:`hexcore.records.abstractplay` -- Abstract Play style records:
  ``to_abstractplay(game)`` / ``from_abstractplay(record)`` for the games
  Abstract Play hosts (Churn: a list of moves; Wunchunk: an object with rounds).

Every public name of both modules is available here too
(``hexcore.records.from_abstractplay``).
"""
from __future__ import annotations

from .abstractplay import AP_BALANCE_DATE, APRecord, abstractplay_rounds, from_abstractplay, to_abstractplay
from .hexcore_json import FORMAT, VERSION, from_dict, from_json, setup_of, to_dict, to_json

__all__ = ["FORMAT", "VERSION", "to_dict", "from_dict", "to_json", "from_json", "setup_of",
           "APRecord", "to_abstractplay", "from_abstractplay", "abstractplay_rounds", "AP_BALANCE_DATE"]
