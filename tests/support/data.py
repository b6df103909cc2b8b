"""The repository's seed data (seeds/<game>/, copied from the shared records) as the tests read it."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SEEDS = ROOT / "seeds"
# The test data lives in the repository (seeds/<game>/), copied from the shared records.
DATA = SEEDS


def load_json(path: Path):
    with open(path) as f:
        return json.load(f)


def load_jsonl(path: Path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
