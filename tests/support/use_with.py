"""The examples of the "Use with other libraries" page (docs/guides/use-with.md), by library."""
import re
from pathlib import Path
from typing import Dict, List

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "use-with.md"
# the module each library's examples need
NEEDS = {"Stable-Baselines3": "sb3_contrib", "Gymnasium": "gymnasium", "PettingZoo": "pettingzoo",
         "OpenSpiel": "pyspiel", "Ray": "ray"}


def examples() -> Dict[str, List[str]]:
    """``{library: [code of each ```py block]}``."""
    body = PAGE.read_text(encoding="utf-8")
    out: Dict[str, List[str]] = {}
    for part in re.split(r"^## ", body, flags=re.M)[1:]:
        name, _, rest = part.partition("\n")
        out[name.strip()] = re.findall(r"^```py\n(.*?)^```", rest, re.S | re.M)
    return out


def run(code: str, name: str) -> Dict[str, object]:
    namespace: Dict[str, object] = {"__name__": f"use_with_{name}"}
    exec(compile(code, f"use-with.md ({name})", "exec"), namespace)
    return namespace
